package nnet

// runnableRoutines returns the assembly routine sets this CPU can run.
func runnableRoutines() map[string]*vecRoutines {
	m := map[string]*vecRoutines{}
	if hasNEON {
		m["neon"] = &neonRoutines
	}
	return m
}
