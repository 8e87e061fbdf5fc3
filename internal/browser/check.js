// The checks of Browser.Check, run in the loaded page; the value is a list
// of {kind, what}. A pixel of slack absorbs rounding.
(() => {
  const problems = [];
  const add = (kind, what) => problems.push({kind, what});
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    const text = (el.getAttribute("src") || el.textContent || "").trim().replace(/\s+/g, " ");
    return text ? s + ' "' + text.slice(0, 80) + '"' : s;
  };
  const root = document.documentElement;
  const viewport = root.clientWidth;

  // Images: loaded, and not broken.
  for (const img of document.images) {
    if (!img.complete || img.naturalWidth === 0) {
      add("image", name(img) + " did not load");
    }
  }

  // The page as a whole must not scroll sideways.
  if (root.scrollWidth > viewport + 1) {
    add("page", "the page is " + root.scrollWidth + " px wide in a " + viewport + " px window");
  }

  // Tables and preformatted text: within their container's content box
  // and the window, and without content wider than themselves.
  for (const el of document.querySelectorAll("table, pre")) {
    const box = el.getBoundingClientRect();
    const parent = el.parentElement;
    const ps = getComputedStyle(parent);
    const limit = Math.min(viewport,
      parent.getBoundingClientRect().right - parseFloat(ps.paddingRight) - parseFloat(ps.borderRightWidth));
    if (box.right > limit + 1) {
      add("overflow", name(el).slice(0, 60) + " ends at " + Math.round(box.right) + " px, past its container's " + Math.round(limit) + " px");
    } else if (el.scrollWidth > el.clientWidth + 1) {
      add("overflow", name(el).slice(0, 60) + " holds " + el.scrollWidth + " px of content in " + el.clientWidth + " px");
    }
  }

  // Text running out of its box: a block (or cell) whose content is wider
  // than its box, or taller where the box clips it. Elements that scroll
  // their overflow on purpose are left alone.
  for (const el of document.body.querySelectorAll("*")) {
    const cs = getComputedStyle(el);
    if (cs.display === "inline" || cs.display === "none" || el.tagName === "IMG" || el.tagName === "TABLE" || el.tagName === "PRE") {
      continue;
    }
    const scrolls = (o) => o === "auto" || o === "scroll";
    if (!scrolls(cs.overflowX) && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      add("text", name(el) + " is " + el.scrollWidth + " px wide in a " + el.clientWidth + " px box");
    }
    const clips = (o) => o === "hidden" || o === "clip";
    if (clips(cs.overflowY) && el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1) {
      add("text", name(el) + " is cut off: " + el.scrollHeight + " px tall in a " + el.clientHeight + " px box");
    }
  }
  // Red text only for problems: text in a red colour (hue within 20
  // degrees of red, saturated, not pale) must lie inside an element of
  // class "problem" (a claim that does not hold, a failed cell).
  const reddish = (css) => {
    const m = css.match(/rgba?\((\d+), (\d+), (\d+)/);
    if (!m) return false;
    const [r, g, b] = [+m[1], +m[2], +m[3]];
    const hi = Math.max(r, g, b), lo = Math.min(r, g, b);
    if (hi !== r || hi - lo < 60 || lo > 200) return false;
    const hue = 60 * (g - b) / (hi - lo); // red's hue sector, in degrees
    return Math.abs(hue) <= 20;
  };
  for (const el of document.body.querySelectorAll("*")) {
    const own = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim() !== "");
    if (own && reddish(getComputedStyle(el).color) && !el.closest(".problem")) {
      add("colour", name(el).slice(0, 80) + " is red but not marked as a problem");
    }
  }

  // Links a browser cannot show as a page: Markdown opens as plain text.
  for (const a of document.querySelectorAll("a[href]")) {
    const href = a.getAttribute("href");
    if (/\.md(#.*)?$/i.test(href)) {
      add("link", 'a "' + href + '" links a Markdown file, which a browser shows as plain text');
    }
  }
  return problems;
})()
