// Package plugintest checks plug-ins of package experiments against the
// contract every plug-in keeps, in the manner of testing/fstest: a paper's
// package (or a researcher's own) calls it from its tests on the plug-ins
// it registers, and pueval's core runs it on its own.
//
// The checks, per plug-in:
//
//  1. Defaults decode: an empty option mapping (plus the options the
//     plug-in requires, Options.Required) decodes strictly, validates, and
//     keeps the defaults (the same Key).
//  2. An unknown option is an error naming the file, its line and the
//     option.
//  3. Key covers every option: each option field (found by reflection,
//     nested and inline structs included) is changed in turn and Key must
//     change, except fields tagged key:"-" (execution settings such as a
//     worker count, which never change a result).
//  4. The same seed gives the same result: a protocol splits twice, a
//     source loads twice, a truth or measure runs twice on one cell and a
//     whole small experiment runs twice (with one and two workers), and the
//     results are equal.
//  5. Context cancellation is honoured: under a cancelled context a
//     plug-in returns its result or an error that wraps the context's, never
//     another error, and a run of the small experiment under a cancelled
//     context records nothing.
//
// Protocol, Source, Truth, Measure and Axis check one plug-in; Registered
// checks every registered plug-in whose name it is given.
package plugintest
