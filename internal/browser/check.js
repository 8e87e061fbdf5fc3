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
  return problems;
})()
