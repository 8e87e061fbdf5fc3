package report

import "testing"

// TestVerdictOver: the expected verdicts are the definition's: one failed
// comparison refutes a claim about every unit; it holds only when every
// unit was compared and passed; no comparison at all, or a unit without
// values and no failure, is "not checked".
func TestVerdictOver(t *testing.T) {
	for _, c := range []struct {
		passed, failed, uncompared int
		want                       Verdict
	}{
		{0, 0, 0, NotChecked}, // nothing compared: no vacuous "holds"
		{0, 0, 3, NotChecked},
		{3, 0, 0, Holds},
		{3, 0, 1, NotChecked}, // the unit without values might have failed
		{3, 1, 0, Fails},
		{0, 1, 5, Fails}, // refuted by the values that are there
	} {
		if got := VerdictOver(c.passed, c.failed, c.uncompared); got != c.want {
			t.Errorf("VerdictOver(%d, %d, %d) = %s, want %s", c.passed, c.failed, c.uncompared, got, c.want)
		}
	}
	if VerdictOf(true) != Holds || VerdictOf(false) != Fails {
		t.Error("VerdictOf")
	}
	// The strings every claims.md prints.
	for v, want := range map[Verdict]string{NotChecked: "not checked", Holds: "holds", Fails: "does NOT hold"} {
		if v.String() != want {
			t.Errorf("%d: %q, want %q", v, v.String(), want)
		}
	}
}

// TestClaimRendering: the two line layouts are the ones the PULP and the
// Claesen claims.md files have always had (their lines below are theirs,
// shortened), and the list, summary and HTML follow the definitions.
func TestClaimRendering(t *testing.T) {
	pulp := Claim{N: 3, Item: "Sec. 4, Table 1", Paper: "PULP \"is a better choice\"", Test: "PULP's rank correlation >= L&L's",
		Verdict: Holds, Detail: "PULP 0.900, L&L 0.875 (difference +0.025)"}
	if got, want := pulp.String(), `3. Sec. 4, Table 1: the paper: PULP "is a better choice". Test: PULP's rank correlation >= L&L's: holds. Measured: PULP 0.900, L&L 0.875 (difference +0.025)`; got != want {
		t.Errorf("numbered:\n got %s\nwant %s", got, want)
	}
	claesen := Claim{Item: "Fig. 2", Test: "the bounds contain the true AUC", Verdict: Fails, Detail: "lowest 66.7 % at |P_L| 1000"}
	if got, want := claesen.String(), "Fig. 2: the bounds contain the true AUC: does NOT hold (lowest 66.7 % at |P_L| 1000)"; got != want {
		t.Errorf("short:\n got %s\nwant %s", got, want)
	}
	bare := Claim{Item: "Fig. 5", Test: "the PR bounds are wider"}
	if got, want := bare.String(), "Fig. 5: the PR bounds are wider: not checked"; got != want {
		t.Errorf("no detail: %q, want %q", got, want)
	}

	cs := []Claim{pulp, claesen, bare, {Item: "x", Test: "a < b & c", Verdict: Holds}}
	// 2 hold (pulp, the last), 1 does not (claesen), 1 not checked (bare).
	if got, want := ClaimsSummary(cs), "2 hold, 1 do not, 1 could not be checked on these records."; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	md := ClaimsMarkdown("Claims", "Intro.\n\n", cs[1:3], Claim.String, map[string]string{"covtype": "gone"})
	if want := "# Claims\n\nIntro.\n\n- " + claesen.String() + "\n- " + bare.String() + "\n\nData sets of the config not in this run:\n\n- covtype: gone\n"; md != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", md, want)
	}
	// A failed claim is marked as a problem (the red of the page); the text is escaped.
	h := ClaimsHTML(cs[1:], Claim.String)
	if want := "<ul>\n<li class=\"problem\">" + claesen.String() + "</li>\n<li>" + bare.String() + "</li>\n<li>x: a &lt; b &amp; c: holds</li>\n</ul>\n"; h != want {
		t.Errorf("html:\n%s\nwant:\n%s", h, want)
	}
}
