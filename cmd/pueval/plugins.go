package main

// The papers register their plug-ins, reports and configs when imported.
import _ "github.com/pueval/pueval/papers/all"
