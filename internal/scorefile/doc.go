// Package scorefile reads the CSV files the pueval commands take from a
// practitioner: one reader, one label convention and one set of limits for
// `pueval metrics`, `correct`, `estimate`, `bounds` and `evaluate`, and for
// the scores-file data source of the experiments.
//
// A file is CSV with a header row that names the columns, one example per
// row. A UTF-8 byte-order mark at the start of the file is dropped; lines
// starting with '#' are comments; empty lines are skipped. Column names are
// matched trimmed and case-insensitively, so a header that names one column
// twice under that comparison ("score" and " Score") is refused, naming both
// positions: a command could otherwise read either copy.
//
// [Open] (or [NewReader]) reads the header; [Reader.Read] then reads the
// rows once, in one pass (a pipe or FIFO works), taking each column in the
// role a [Spec] gives it: the label, the scores, the true classes, the
// features, or nothing (ignored). [Columns] says which column was read as
// what, for the commands' output. A column a Spec names that is not in the
// header is an error naming the column and the flag that names it.
//
// Labels. In PU data (the default) a label 1 marks a labeled example and 0
// or an empty field an unlabeled one; [Spec.Negatives], when set, is the
// label value that marks known negatives (with it, -1 also reads as
// unlabeled). 1 and 0 may be written in any numeric spelling of exactly 1
// or 0 ("1", "0", "1.0", "0.0", "1e0", "+1", "-0", as numpy and pandas write
// them), or true/false in any case. With [Classes] the label is a true
// class, 1 or 0, and an empty field is an error. Scores and features are
// finite numbers.
//
// Every bad row is an error that names the file, the line and the column
// (quoted, so that stray bytes show).
//
// Limits. A line may be at most [MaxLineBytes] (1 MiB) long, and so may a
// record whose quoted field spans lines; a longer one is an error
// "FILE:LINE: line longer than 1 MiB", so that input without line breaks
// (/dev/zero) is refused at once instead of filling the memory. A file may
// have at most [MaxRows] (100 million) data rows, which bounds the memory the
// scores and labels take to about 1 GB (9 bytes a row, plus the slack of a
// growing slice), and at most [MaxCells] (200 million) feature values (1.6
// GB): an endless stream of valid rows ends in an error, not in the kernel's
// out-of-memory killer. Real score files are far smaller (the largest UCI
// data set of the papers has 581,012 rows).
//
// Cancellation. Every reader stops when its context is done: it checks the
// context before every read from the underlying reader and every 4096 rows,
// and a read that blocks (a pipe or FIFO whose writer stalls) is interrupted
// when the reader has a SetReadDeadline method, as an *os.File of a pipe or
// FIFO has. The error then wraps [context.Cause] of the context
// (context.Canceled, or a cause that matches it). [Open] also gives up
// opening a FIFO that no writer opens when the context is done.
package scorefile
