package nnet

// runnableRoutines returns the assembly routine sets this CPU can run.
func runnableRoutines() map[string]*vecRoutines {
	m := map[string]*vecRoutines{}
	if hasAVX512 {
		m["avx512"] = &avx512Routines
	}
	if hasAVX2 {
		m["avx2"] = &avx2Routines
	}
	return m
}
