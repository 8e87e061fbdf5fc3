# pueval: the set-up on a fresh machine is `make test` and `make reproduce-aaai2017`.
GO      ?= go
# VERSION: unset, the binary reports the version the go command records (the module's pseudo-version, or
# devel when it records none), the same as go install gives; make build VERSION=v1.2 stamps one.
VERSION ?=
LDFLAGS := $(if $(VERSION),-ldflags '-X github.com/pueval/pueval/cli.version=$(VERSION)')
BIN     := bin/pueval
JOBS    ?= 2

.PHONY: all build test test-cross test-slurm test-browser screenshots docs-example bench bench-evaluate fmt-check fuzz clean reproduce-aaai2017 reproduce-psb2019 reproduce-claesen2015 reproduce-aul reproduce-pulp reproduce-pulp-sensitivity reproduce-all reference-digests smoke

all: build

## build: bin/pueval. It carries the vector kernels of its architecture (AVX-512 and AVX2 on amd64,
## NEON on arm64), chosen at run time by the CPU's features, all computing the same float32x16
## numerics as the plain-Go kernel used elsewhere (pueval run prints the kernel it uses; so do the
## run's manifest and records).
build:
	$(GO) build $(LDFLAGS) -o $(BIN) ./cmd/pueval

## test: go vet, then every test (the command CI runs: on a CPU with AVX-512 it checks
## the AVX-512 and AVX2 kernels bit for bit against their portable statement); then
## test-cross, the kernels of the CPUs this one is not.
test:
	$(GO) vet ./...
	$(GO) test -timeout 30m ./...
	$(MAKE) --no-print-directory test-cross

## test-cross: vet of classifiers/nnet for arm64 (the neon kernel) and riscv64 (the kernels'
## portable fallback); then, under Debian's user-mode emulators (package qemu-user), the
## neon kernel's tests (arm64 test binaries of classifiers/nnet and classifiers under
## qemu-aarch64, after checking its hand-encoded instructions against go tool objdump)
## and the avx2 kernel's on a CPU without AVX-512 (qemu-x86_64 -cpu Haswell); in both,
## auto must pick the kernel (PUEVAL_EXPECT_KERNEL); and the golden hashes of the packages
## that give the same bits on every CPU (internal/portmath, classifiers/gbdt, estimators/kmpe,
## estimators/distcurve, classifiers/svm, classifiers/kernelauc, datasets/gmm, estimators/bounds) under
## qemu-aarch64, Haswell and Nehalem, with kmpe's AVX2 kernels against their Go statements on
## Haswell, and internal/linalg's kernel agreement tests on all three; and, with $$PUEVAL_UCI_MIRROR, the records of the five smoke configs under
## qemu-aarch64 against the golden hashes written on amd64 (cli TestGoldenRecords, about
## 3 minutes); and on an amd64 CPU that can run it, both golden checks natively with GOAMD64=v3,
## whose compiler fuses multiply-adds as arm64's does. A part whose emulator (or CPU) is missing
## is skipped, saying so. Without the smoke records
## 68 s with a warm build cache (50 s before the golden hashes); with a cold one for arm64 and
## riscv64 (as in CI) longer.
# On arm64 also the plain-Go statement's own tests (fma32, tanh32, the scalar kernels): the
# compiler fuses multiply-adds there, which amd64's default build never does.
CROSS_NNET_RUN := ^Test(F32|FMA32|Tanh|AutoPicksVectorKernel|KernelsAgree|KernelByHand|VecRoutinesAnyCount)
CROSS_AVX2_RUN := ^Test(F32KernelsAgree|AutoPicksVectorKernel|VecRoutinesAnyCount|LaneSums|GatherBlock|MapBlock)$$
# Haswell (AVX2, FMA, no AVX-512) less the features qemu's TCG does not emulate, which it
# would otherwise warn about once per thread.
CROSS_HASWELL  := Haswell,-hle,-rtm,-pcid,-invpcid,-x2apic,-tsc-deadline
# The packages that compute with the same bits on every CPU: their golden hashes (TestGoldenBits,
# written on an AVX-512 amd64) under arm64, Haswell (AVX2 kernels) and Nehalem (no AVX, no FMA: the
# Go kernels, and the CPU on which math.Exp takes its other branch); on Haswell also kmpe's kernel
# agreement tests (CROSS_KMPE_AVX2, with its golden test), which run the AVX2 assembly against
# the Go statements.
CROSS_PORTABLE := internal/portmath classifiers/gbdt estimators/kmpe estimators/distcurve classifiers/svm \
	classifiers/kernelauc datasets/gmm estimators/bounds internal/linalg
CROSS_KMPE_AVX2 := ^Test(GoldenBits|PickKernels|VecKernelsAgree|Axpy4KernelsAgree|Axpy2x4KernelsAgree|BackSubstituteRowByRow|RotKernelsAgree|SubTileKernelsAgree|ExpNegAgrees|SqDistAgrees)$$
# internal/linalg has no golden hash of its own (kernelauc's and gmm's cover it): its kernel agreement tests and
# the tests of its plain-Go statements run instead, on every emulated CPU.
CROSS_LINALG := ^Test(GramKernelsAgree|ElementwiseKernelsAgree|Syrk4KernelsAgree|CholPanelKernelsAgree|CholeskyKernelsAgree|ExpScaledAgrees|SubScaled4IsFourSubScaled|PickKernels|TransMulVecInOrder|GramInOrder|CholeskySolve|LUSolve)$$
test-cross:
	GOARCH=arm64 $(GO) vet ./classifiers/nnet
	GOARCH=riscv64 $(GO) vet ./classifiers/nnet
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	if command -v qemu-aarch64 >/dev/null 2>&1; then \
		echo "test-cross: arm64 (neon) under qemu-aarch64"; \
		GOARCH=arm64 $(GO) test -c -o "$$tmp/nnet.test" ./classifiers/nnet; \
		GOARCH=arm64 $(GO) test -c -o "$$tmp/classifiers.test" ./classifiers; \
		(cd classifiers/nnet && $(GO) run gen_avx512.go gen_neon.go -verify "$$tmp/nnet.test"); \
		(cd classifiers/nnet && PUEVAL_EXPECT_KERNEL=neon qemu-aarch64 "$$tmp/nnet.test" -test.run '$(CROSS_NNET_RUN)'); \
		(cd classifiers && qemu-aarch64 "$$tmp/classifiers.test" -test.run '^TestVectorKernelsAgreeInBag$$'); \
		for p in $(CROSS_PORTABLE); do \
			echo "test-cross: $$p golden bits under qemu-aarch64"; \
			GOARCH=arm64 $(GO) test -c -o "$$tmp/portable.test" ./$$p; \
			run='^TestGoldenBits$$'; if [ "$$p" = internal/linalg ]; then run='$(CROSS_LINALG)'; fi; \
			(cd $$p && qemu-aarch64 "$$tmp/portable.test" -test.run "$$run"); \
		done; \
		if [ -n "$$PUEVAL_UCI_MIRROR" ]; then \
			echo "test-cross: the smoke configs' records under qemu-aarch64 (TestGoldenRecords)"; \
			GOARCH=arm64 $(GO) test -c -o "$$tmp/cli.test" ./cli; \
			(cd cli && qemu-aarch64 "$$tmp/cli.test" -test.run '^TestGoldenRecords$$'); \
		else echo "test-cross: the smoke records under arm64 skipped: PUEVAL_UCI_MIRROR is unset"; fi; \
	else echo "test-cross: arm64 skipped: qemu-aarch64 not installed (apt-get install qemu-user)"; fi; \
	if command -v qemu-x86_64 >/dev/null 2>&1; then \
		echo "test-cross: amd64 without AVX-512 (avx2) under qemu-x86_64 -cpu Haswell"; \
		GOARCH=amd64 $(GO) test -c -o "$$tmp/nnet-amd64.test" ./classifiers/nnet; \
		(cd classifiers/nnet && PUEVAL_EXPECT_KERNEL=avx2 qemu-x86_64 -cpu $(CROSS_HASWELL) "$$tmp/nnet-amd64.test" -test.run '$(CROSS_AVX2_RUN)'); \
		for p in $(CROSS_PORTABLE); do \
			echo "test-cross: $$p golden bits under qemu-x86_64 -cpu Haswell and -cpu Nehalem"; \
			run='^TestGoldenBits$$'; if [ "$$p" = estimators/kmpe ]; then run='$(CROSS_KMPE_AVX2)'; fi; \
			nrun='^TestGoldenBits$$'; if [ "$$p" = internal/linalg ]; then run='$(CROSS_LINALG)'; nrun=$$run; fi; \
			GOARCH=amd64 $(GO) test -c -o "$$tmp/portable-amd64.test" ./$$p; \
			(cd $$p && qemu-x86_64 -cpu $(CROSS_HASWELL) "$$tmp/portable-amd64.test" -test.run "$$run"); \
			(cd $$p && qemu-x86_64 -cpu Nehalem "$$tmp/portable-amd64.test" -test.run "$$nrun"); \
		done; \
	else echo "test-cross: amd64/Haswell skipped: qemu-x86_64 not installed (apt-get install qemu-user)"; fi; \
	if [ "$$($(GO) env GOARCH)" = amd64 ] && grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo && grep -qw movbe /proc/cpuinfo; then \
		echo "test-cross: built with GOAMD64=v3, where the compiler fuses multiply-adds too: golden hashes and records"; \
		GOAMD64=v3 $(GO) test -count=1 -run '^TestGoldenBits$$' $(addprefix ./,$(CROSS_PORTABLE)); \
		if [ -n "$$PUEVAL_UCI_MIRROR" ]; then GOAMD64=v3 $(GO) test -count=1 -run '^TestGoldenRecords$$' ./cli; fi; \
	else echo "test-cross: GOAMD64=v3 skipped: not an amd64 CPU with AVX2, FMA, BMI2 and MOVBE"; fi

## test-slurm: TestSlurmCluster alone: it starts a real one-node Slurm (munged, slurmctld, slurmd from Debian's
## slurm-wlm and munge, as root, with a slurm.conf of its own on free ports) and runs the AAAI-2017 smoke config as a
## 3-task job array and merge job through it, a cancelled and re-submitted shard, and a refused merge (about 2
## minutes on 2 cores). It skips, saying why, when not root, without the packages or without PUEVAL_UCI_MIRROR.
## Plain `go test ./...` skips it: it runs only with PUEVAL_TEST_SLURM=1, which this target sets.
test-slurm:
	PUEVAL_TEST_SLURM=1 $(GO) test -count=1 -timeout 15m -run '^TestSlurmCluster$$' -v ./cli

## test-browser: the reports of the smoke runs and a user's summary report loaded in headless Chromium
## (internal/browser): the test fails if an image does not load, a table overflows the page, text runs out of its box,
## text is red outside a problem, a Markdown file is linked or a figure shows under 0.8 of its size, and here (PUEVAL_TEST_BROWSER=1)
## if no browser is installed (Debian: apt-get install chromium). The smoke runs need $$PUEVAL_UCI_MIRROR.
test-browser:
	PUEVAL_TEST_BROWSER=1 $(GO) test -count=1 -run 'TestCheckFindsBrokenPages|TestImages|TestScreenshot|TestReportsInBrowser' ./internal/browser/... ./cli

## screenshots: docs/report-aaai2017.png and docs/report-psb2019.png, full-page screenshots of the reports of full
## runs (AAAI2017_RESULTS, PSB2019_RESULTS: results directories, default results/aaai2017 and results/psb2019),
## redrawn from their records first. Needs Chromium.
AAAI2017_RESULTS ?= results/aaai2017
PSB2019_RESULTS  ?= results/psb2019
screenshots: build
	$(BIN) report $(AAAI2017_RESULTS)
	$(BIN) report $(PSB2019_RESULTS)
	$(GO) run ./internal/browser/shoot -o docs/report-aaai2017.png $(AAAI2017_RESULTS)/report/index.html
	$(GO) run ./internal/browser/shoot -o docs/report-psb2019.png $(PSB2019_RESULTS)/report/index.html

## docs-example: the README's example, made again from the data: examples/spambase/scores.csv (the held-out scores of
## the papers' bagged nets on Spambase, 30 % of the spam labeled at random, with the true class) and
## docs/pu-true-recovered.svg (their PU, recovered and true ROC curves, as pueval evaluate --html draws them). Needs
## Spambase ($$PUEVAL_UCI_MIRROR or the network); a few seconds.
docs-example: build
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(BIN) datasets export spambase -o "$$tmp/spam.csv" --truth class; \
	$(BIN) evaluate --input "$$tmp/spam.csv" --truth class --estimators alphamax-n --bootstrap 0 --bounds-resamples 0 \
		--scores-out examples/spambase/scores.csv --html "$$tmp/page" --format json > /dev/null; \
	cp "$$tmp/page/roc.svg" docs/pu-true-recovered.svg; \
	echo "wrote examples/spambase/scores.csv and docs/pu-true-recovered.svg"

## reproduce-aaai2017: the AAAI-2017 paper's full protocol into results/aaai2017, then its report
## (results/aaai2017/report/index.html). Data come from $$PUEVAL_UCI_MIRROR, else from UCI.
## Interrupt it at will: running it again continues where it stopped. Like every reproduce-PAPER
## target it ends with the run compared with the digests of the paper's reference run (pueval
## verify's verdict: "identical to the reference run (N cells)", or what differs and why).
# Exit status 3 means the reproduction finished and wrote its report but
# some cells failed (the report lists them): make accepts it and says so.
CELLS_FAILED_OK = s=$$?; if [ $$s -eq 3 ]; then echo "make: some cells failed; the report lists them"; else exit $$s; fi

reproduce-aaai2017: build
	$(BIN) reproduce aaai2017 -j $(JOBS) || { $(CELLS_FAILED_OK); }

## reproduce-psb2019: the PSB-2019 paper's protocol into results/psb2019, then its report (Figures 1-2).
reproduce-psb2019: build
	$(BIN) reproduce psb2019 -j $(JOBS) || { $(CELLS_FAILED_OK); }

## reproduce-claesen2015: Claesen et al. 2015 (Figures 1-5, appendix tables) into results/claesen2015, then its
## report. Figure 5 needs the paper's covtype ranking: set PUEVAL_CLAESEN_DATA to the folder holding
## covtype_scores.csv (without it the run skips that data set and the report says so). About 3 minutes.
reproduce-claesen2015: build
	$(BIN) reproduce claesen2015 -j $(JOBS) || { $(CELLS_FAILED_OK); }

## reproduce-aul: "AUL is a better optimization metric in PU learning" (Table 1, Figure 2, the timing table) into
## results/aul with the honest GBDT scores, then into results/aul-degraded with the scores degraded to the paper's
## AUCs (the side-by-side columns; the second run reuses the first's estimates from the score cache), then Figure 3
## (PU_AUC against PU_AUL) into results/aul-fig3.
reproduce-aul: build
	$(BIN) reproduce aul -j $(JOBS) || { $(CELLS_FAILED_OK); }
	$(BIN) reproduce aul-degraded -j $(JOBS) || { $(CELLS_FAILED_OK); }
	$(BIN) reproduce aul-fig3 -j $(JOBS) || { $(CELLS_FAILED_OK); }

## reproduce-pulp: the PULP paper (Hajizadeh et al. 2014; Table 1 and Figure 2, the claims as pass/fail) into
## results/pulp on pueval's protocol: 20 problems (20 Newsgroups and MNIST one-vs-rest) x 13 weighted SVMs x 5
## priors x 3 labeling scenarios, 8-fold cross-validation.
reproduce-pulp: build
	$(BIN) reproduce pulp -j $(JOBS) || { $(CELLS_FAILED_OK); }

## reproduce-all: every paper's reproduction (aaai2017, aul, claesen2015, psb2019, pulp) into results/CONFIG with
## its report, then results/index.html: a landing page with one card per paper (its claims that hold, do not hold and
## were not checked, each run compared with its reference digests, the time, the links to the reports). The runs
## share one score cache. Interrupt it at will: running it again continues where it stopped. SMOKE=1 runs the
## smoke configs instead (about a minute) and writes the same page.
reproduce-all: build
	$(BIN) reproduce-all -j $(JOBS) $(if $(SMOKE),--smoke) || { $(CELLS_FAILED_OK); }

## reference-digests: rewrite the digests of the reference runs that the papers ship
## (papers/PAPER/reference/CONFIG.digests, gzip-compressed CONFIG.digests.gz for the full runs), after a deliberate change of the records (with the golden hashes:
## PUEVAL_UPDATE_GOLDEN=1 go test ./cli -run TestGoldenRecords): the smoke configs' from fresh runs into a
## temporary directory (PUEVAL_CLAESEN_DATA must be set: claesen2015-smoke's reference holds its covtype cells);
## with FULL=1 also the full configs' from the finished runs under results/ (make reproduce-all first; a config
## without a run there keeps its digests); a run that is not a finished run of its whole grid is refused. One digest file by hand:
## bin/pueval verify results/CONFIG --write-reference papers/PAPER/reference/CONFIG.digests.gz
SMOKE_CONFIGS := aaai2017/aaai2017-smoke aul/aul-smoke claesen2015/claesen2015-smoke psb2019/psb2019-smoke pulp/pulp-smoke
FULL_CONFIGS  := aaai2017/aaai2017 aul/aul aul/aul-degraded aul/aul-fig3 claesen2015/claesen2015 psb2019/psb2019 pulp/pulp
reference-digests: build
	@set -e; test -n "$$PUEVAL_CLAESEN_DATA" || { echo "reference-digests: set PUEVAL_CLAESEN_DATA (claesen2015-smoke's covtype cells)"; exit 1; }; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for pc in $(SMOKE_CONFIGS); do p=$${pc%%/*}; c=$${pc#*/}; \
		$(BIN) run $$c -o "$$tmp/$$c" -j $(JOBS) --no-score-cache; \
		$(BIN) verify "$$tmp/$$c" --write-reference papers/$$p/reference/$$c.digests; done; \
	if [ -n "$(FULL)" ]; then for pc in $(FULL_CONFIGS); do p=$${pc%%/*}; c=$${pc#*/}; \
		if [ -f results/$$c/manifest.json ]; then rm -f papers/$$p/reference/$$c.digests; \
			$(BIN) verify results/$$c --write-reference papers/$$p/reference/$$c.digests.gz; \
		else echo "reference-digests: results/$$c holds no run: its digests are left as they are"; fi; done; fi

## reproduce-pulp-sensitivity: the PULP paper's open choices varied one at a time (papers/pulp/README.md,
## "Sensitivity study") into results/pulp-sensitivity.
reproduce-pulp-sensitivity: build
	$(BIN) reproduce pulp-sensitivity -j $(JOBS) || { $(CELLS_FAILED_OK); }

## smoke: the tiny CI version of the AAAI-2017 pipeline into results/aaai2017-smoke, with its report.
smoke: build
	$(BIN) reproduce aaai2017-smoke -o results/aaai2017-smoke -j $(JOBS)
	$(BIN) reproduce psb2019-smoke -o results/psb2019-smoke -j $(JOBS)
	$(BIN) reproduce claesen2015-smoke -o results/claesen2015-smoke -j $(JOBS)
	$(BIN) reproduce aul-smoke -o results/aul-smoke -j $(JOBS)
	$(BIN) reproduce pulp-smoke -o results/pulp-smoke -j $(JOBS)

## bench: every benchmark once; docs/performance.md has the numbers and how they were taken.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-evaluate: the practitioner's benchmark of pueval evaluate (internal/benchevaluate; not part of make test):
## PU cases with known truth built from the mirror's data sets ($$PUEVAL_UCI_MIRROR) and from synthetic data, scored
## by three models, evaluated with estimated and with the true priors. Prints the tables of docs/evaluate-benchmark.md
## and writes every case's numbers to results/bench-evaluate/DESIGN.json. QUICK=1 runs the quick design (184 cases,
## 2-4 minutes on 2 cores), the default the full one (1,032 cases, 30-45 minutes); the held-out scores are cached under
## $$PUEVAL_DATA/bench-evaluate, so a second run only evaluates. BENCH_EVALUATE_FLAGS adds flags (-cases REGEXP,
## -set validation, -seed S, ...; go run ./internal/benchevaluate/cmd/bench-evaluate -h lists them).
BENCH_EVALUATE_FLAGS ?=
bench-evaluate:
	$(GO) run ./internal/benchevaluate/cmd/bench-evaluate $(if $(QUICK),-quick) -j $(JOBS) $(BENCH_EVALUATE_FLAGS)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## fuzz: a short run of every fuzz target. Inputs that crash go to the package's testdata/fuzz
## (then committed as regression tests); the corpora of the config, records and score-cache
## fuzzers are committed there too, so `go test` replays them.
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime 30s ./internal/scorefile
	$(GO) test -run '^$$' -fuzz FuzzReadLimits -fuzztime 30s ./internal/scorefile
	for f in FuzzParseDelimited FuzzParseGas FuzzDecompressZ FuzzReadXLS FuzzParseDocuments FuzzParseCatalog FuzzDecodeEncoded FuzzReadIDX; do \
		$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime 30s -fuzzminimizetime 5s ./datasets || exit 1; done
	$(GO) test -run '^$$' -fuzz FuzzScore -fuzztime 30s ./classifiers
	$(GO) test -run '^$$' -fuzz FuzzGramKernelsAgree -fuzztime 30s -fuzzminimizetime 5s ./internal/linalg
	$(GO) test -run '^$$' -fuzz FuzzSVMTrain -fuzztime 30s -fuzzminimizetime 5s ./classifiers/svm
	$(GO) test -run '^$$' -fuzz FuzzParseConfig -fuzztime 30s -fuzzminimizetime 5s ./experiments
	for f in FuzzReadRecords FuzzScoreCache; do \
		$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime 30s -fuzzminimizetime 5s ./experiments/results || exit 1; done
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime 30s -fuzzminimizetime 5s ./experiments/reference

clean:
	rm -rf bin
