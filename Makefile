# Thin wrapper around CMake. `make` builds Release (-O3) into build/;
# `make debug` builds with ASan + UBSan into build-debug/.
BUILD ?= build
DEBUG_BUILD ?= build-debug
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
CTEST_FLAGS ?= --output-on-failure

.PHONY: all debug test test-debug speed speed-full speed-check perf-doc \
	file-speed \
	install clean format ct-check ct-msan dudect cross-test wasm-speed \
	coverage tsan fuzz python-test format-check

all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

# The sanitizer build (ASan + UBSan) at -O1 (DEBUG_CFLAGS): the
# sanitizers' own advice for speed; measured here, the differential test
# ran 3.4x faster in user time than at -O0, which is what keeps CI's
# test-debug step short. DEBUG_CFLAGS=-O0 -g for stepping in a debugger.
DEBUG_CFLAGS ?= -O1 -g
debug:
	cmake -S . -B $(DEBUG_BUILD) -DCMAKE_BUILD_TYPE=Debug -DAESIR_SANITIZE=ON \
		-DCMAKE_C_FLAGS_DEBUG="$(DEBUG_CFLAGS)" $(CMAKE_FLAGS)
	cmake --build $(DEBUG_BUILD) -j $(JOBS)

test: all
	cd $(BUILD) && ctest $(CTEST_FLAGS) -j $(JOBS)

# The sanitizer build runs GCM on the pairs with a default engine only
# (AESIR_GCM_PAIRS=cross, tests/gcm_pairs.h): every engine, 18 pairs
# instead of 84 here; set AESIR_GCM_PAIRS=all for the full product.
test-debug: debug
	cd $(DEBUG_BUILD) && AESIR_DIFF_CASES=$${AESIR_DIFF_CASES:-1000} \
		AESIR_GCM_PAIRS=$${AESIR_GCM_PAIRS:-cross} ctest $(CTEST_FLAGS) -j $(JOBS)

# The benchmark (bench/): every aesir engine beside every peer library
# installed, the limit row, tables, CSV/JSON and PNG plots in
# $(BUILD)/bench/. speed-deps.sh first installs missing peer -dev packages
# with apt when it can; peers-build.sh builds BoringSSL and AWS-LC from
# crates.io's sources once into a cache (cargo and cmake needed, else
# they are skipped with a message). SPEED_FLAGS adds aesir-bench options, e.g.
# SPEED_FLAGS="--cpb --misalign".
BENCH = $(BUILD)/bench/aesir-bench
SPEED_FLAGS ?=
PLOT = python3 bench/plot.py $(BUILD)/bench || echo "plots skipped (python3 bench/plot.py failed)"
# The current libsodium, AEGIS's peer (issue 19), into the peer cache when
# tests/sodium-current.sh is there (it does nothing once built).
SODIUM_CURRENT = if [ -f tests/sodium-current.sh ]; then \
	  JOBS=$(JOBS) sh tests/sodium-current.sh || \
	  echo "libsodium (current) not built: no AEGIS peer rows"; fi

speed:
	@sh bench/speed-deps.sh
	@JOBS=$(JOBS) sh bench/peers-build.sh
	@$(SODIUM_CURRENT)
	@$(MAKE) --no-print-directory all
	$(BUILD)/tools/aesir info
	$(BENCH) $(SPEED_FLAGS)
	@$(PLOT)
	$(FILE_SPEED)

# The file section (issue 20 point 4): `aesir encrypt/decrypt` on a
# 1 GiB file in /dev/shm, whole processes, against `openssl enc
# -aes-256-ctr` and `age` (installed by speed-deps.sh), cat and cp as the
# I/O floor. FILE_SPEED_ENV sets SIZE_MB, RUNS or DIR (bench/file-speed.sh).
FILE_SPEED_ENV ?=
FILE_SPEED = $(FILE_SPEED_ENV) sh bench/file-speed.sh $(BUILD)/tools/aesir $(BENCH)
file-speed:
	@sh bench/speed-deps.sh
	@$(MAKE) --no-print-directory all
	$(FILE_SPEED)

speed-full:
	@sh bench/speed-deps.sh
	@JOBS=$(JOBS) sh bench/peers-build.sh
	@$(SODIUM_CURRENT)
	@$(MAKE) --no-print-directory all
	$(BENCH) --full $(SPEED_FLAGS)
	@$(PLOT)

# Every adapter's correctness and the harness's code paths, in seconds.
speed-check: all
	$(BENCH) --check

# docs/PERFORMANCE.md from a full run on this machine. Key setup is also
# timed in a process of its own with the AES-instruction engines and the
# peers: the full grid runs the bitsliced engines first, whose 960-byte
# schedules every later key setup in that process must wipe (key.c), which
# a program using the default engine never pays. That process also times
# GCM key setup (the "gcm" kind). Then two short GCM runs for the Speed
# targets (issue 18): gcm-enc/gcm-dec at every target size (odd lengths
# and their round neighbours in one run) with aesir's default pair and the
# peers' hardware rows; and software GCM, aesir with no AES, carry-less
# multiply or GFNI instruction (AESIR_CPU_DISABLE) against
# openssl-noaesni (AES-NI, PCLMULQDQ, VAES, VPCLMULQDQ masked). Then
# issue 19's modes (`--ops modes`: XTS, OCB3, CCM, CMAC, mb-cmac-8,
# GCM-SIV, AES-SIV, KW, AEGIS, XAES-256-GCM) with aesir's default engine
# and every peer that has them, at every grid size plus 32 bytes (key
# wrap of a 256-bit key), with gcm-enc/gcm-dec in the same run for the
# targets that compare with aesir's own GCM; the full grid itself keeps to
# the block modes, multi-buffer and GCM ops (`--ops blocks`; `make
# speed-full` runs everything), so the whole stays under ~25 minutes.
# Only the grid measures the limit row (perf_doc.py reads it from there).
# The bounds are also rows of each run (bench/impl_bound.c): the grid has
# every impl, bound/aes, bound/gcm and bound/chain among them; the GCM and
# modes runs name theirs (GCM_IMPLS, MODES_IMPLS), so that perf_doc.py
# judges the bound targets by same-run cells (docs/BENCHMARK.md).
# SODIUM_CURRENT (above) puts the current libsodium, the AEGIS peer, into
# the peer cache first.
KEYSETUP_IMPLS = aesir/aesni,aesir/vaes-avx2,aesir/vaes-avx512,openssl,gcrypt,nettle,sodium,ipsec-mb,bearssl,wolfssl,mbedtls,boringssl,aws-lc
GCM_IMPLS = aesir/default,bound/gcm,openssl,gcrypt,nettle,sodium,ipsec-mb,bearssl-x86ni,wolfssl,mbedtls,boringssl,aws-lc
GCM_SIZES = 63,64,500,512,576,1420,4095,4096,16384,1048576
GCM_SW_DISABLE = aesni,pclmul,vaes,vpclmul,gfni
MODES_IMPLS = aesir/default,bound/aes,bound/gcm,bound/chain,openssl,gcrypt,nettle,sodium,ipsec-mb,bearssl-x86ni,wolfssl,mbedtls,boringssl,aws-lc
MODES_SIZES = 16,32,64,256,576,1024,4096,16384,1048576
perf-doc:
	@sh bench/speed-deps.sh
	@JOBS=$(JOBS) sh bench/peers-build.sh
	@$(SODIUM_CURRENT)
	@$(MAKE) --no-print-directory all
	$(BENCH) --full --ops blocks $(SPEED_FLAGS)
	@$(PLOT)
	mkdir -p $(BUILD)/bench/keysetup $(BUILD)/bench/gcm $(BUILD)/bench/gcm-sw \
	  $(BUILD)/bench/modes
	$(BENCH) --impls $(KEYSETUP_IMPLS) --ops ctr,cbc-dec --keys 128,192,256 \
	  --sizes 64 --passes 5 --no-limit --out $(BUILD)/bench/keysetup
	$(BENCH) --impls $(GCM_IMPLS) --ops gcm-enc,gcm-dec --keys 128,256 \
	  --sizes $(GCM_SIZES) --passes 3 --no-limit --out $(BUILD)/bench/gcm
	AESIR_CPU_DISABLE=$(GCM_SW_DISABLE) $(BENCH) \
	  --impls aesir/default,openssl-noaesni --ops gcm-enc,gcm-dec \
	  --keys 128,256 --sizes 16384 --passes 3 --no-limit \
	  --out $(BUILD)/bench/gcm-sw
	$(BENCH) --impls $(MODES_IMPLS) --ops modes,gcm-enc,gcm-dec \
	  --keys 128,256 --sizes $(MODES_SIZES) --passes 2 --rounds 7 --no-limit \
	  --out $(BUILD)/bench/modes
	python3 bench/perf_doc.py $(BUILD)/bench docs/PERFORMANCE.md \
	  $(BUILD)/bench/keysetup $(BUILD)/bench/gcm $(BUILD)/bench/gcm-sw \
	  $(BUILD)/bench/modes

# The constant-time check (docs/constant-time.md): every constant-time
# engine under valgrind memcheck with key and data marked secret must show
# no secret-dependent branch or memory index, and ttable and ref must be
# caught. Also part of `make test` when valgrind is installed.
ct-check: all
	cd $(BUILD) && ctest $(CTEST_FLAGS) --no-tests=error -j $(JOBS) -R '^ct_valgrind'

# The second constant-time check (docs/constant-time.md, section 2): the
# same ct_check, built by clang with MemorySanitizer in $(MSAN_BUILD),
# runs every x86 constant-time engine natively, so also those valgrind
# cannot execute (vaes-avx2, vaes-avx512, bs-avx512, gfni); ttable and ref
# must be caught. tests/ct-msan-deps.sh first installs clang's sanitizer
# runtime and llvm-symbolizer when missing.
MSAN_BUILD ?= build-msan
MSAN_CC ?= clang
ct-msan:
	@sh tests/ct-msan-deps.sh $(MSAN_CC)
	CC=$(MSAN_CC) cmake -S . -B $(MSAN_BUILD) -DCMAKE_BUILD_TYPE=Release \
		-DAESIR_CT_MSAN=ON $(CMAKE_FLAGS)
	cmake --build $(MSAN_BUILD) -j $(JOBS) --target ct_msan_programs
	cd $(MSAN_BUILD) && ctest $(CTEST_FLAGS) --no-tests=error -j $(JOBS) -R '^ct_msan'

# Line coverage of src/ (docs/testing.md): everything built by clang with
# source-based coverage in $(COV_BUILD), the whole ctest suite run there
# (each program writes a profile into $(COV_BUILD)/profraw), then
# tests/coverage.py: a table per file, the total against COVERAGE_MIN
# (below it the target fails) and every uncovered line, file:line, in
# $(COV_BUILD)/coverage.txt. COV_DIFF_CASES, when set, bounds the random
# cases per engine and mode of the OpenSSL differential test (CI: 1000);
# they reach the same lines. tests/ct-msan-deps.sh installs clang's
# runtimes and llvm-NN (llvm-profdata, llvm-cov) when missing.
COV_BUILD ?= build-cov
COV_CC ?= clang
COVERAGE_MIN ?= 95
COV_DIFF_CASES ?=
coverage:
	@sh tests/ct-msan-deps.sh $(COV_CC)
	CC=$(COV_CC) cmake -S . -B $(COV_BUILD) -DCMAKE_BUILD_TYPE=Release \
		-DAESIR_COVERAGE=ON $(CMAKE_FLAGS)
	cmake --build $(COV_BUILD) -j $(JOBS)
	rm -rf $(COV_BUILD)/profraw
	cd $(COV_BUILD) && \
	LLVM_PROFILE_FILE=$(abspath $(COV_BUILD))/profraw/%4m.profraw \
	$(if $(COV_DIFF_CASES),AESIR_DIFF_CASES=$(COV_DIFF_CASES)) \
		AESIR_GCM_PAIRS=$${AESIR_GCM_PAIRS:-cross} ctest $(CTEST_FLAGS) -j $(JOBS)
	python3 tests/coverage.py $(COV_BUILD) --min $(COVERAGE_MIN)

# Thread safety of the first use (docs/testing.md): tests/test_threads.c
# and the library built with ThreadSanitizer (clang) in $(TSAN_BUILD),
# run as $(TSAN_ROUNDS) processes (the one-time initialisations race once
# per process); any report fails it. threads_tsan_detects checks that a
# forbidden use (two threads keying one context) is reported. Then the
# tool's threads (issue 20): test_chunked through the real pool, and
# tests/test_tool_tsan.sh (aesir encrypt/decrypt on several threads: the
# pool and the reader/writer threads, a late tampered chunk, --offset on
# an open pipe, EPIPE, SIGINT). TSAN_CC=gcc works too (libtsan).
TSAN_BUILD ?= build-tsan
TSAN_CC ?= clang
TSAN_ROUNDS ?= 30
tsan:
	@case "$(TSAN_CC)" in *clang*) sh tests/ct-msan-deps.sh $(TSAN_CC);; esac
	CC=$(TSAN_CC) cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=Release \
		-DAESIR_TSAN=ON -DAESIR_THREADS_ROUNDS=$(TSAN_ROUNDS) $(CMAKE_FLAGS)
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target test_threads aesir_tool \
		$$(grep -q '^AESIR_TOOL_CRYPTO_FOUND:INTERNAL=1' \
			$(TSAN_BUILD)/CMakeCache.txt && echo test_chunked)
	cd $(TSAN_BUILD) && ctest $(CTEST_FLAGS) --no-tests=error -R '^(threads|chunked$$)'
	sh tests/test_tool_tsan.sh $(TSAN_BUILD)/tools/aesir

# The libFuzzer targets (docs/fuzzing.md): every mode on every engine
# against SP 800-38A, hostile API call sequences against the header's
# promises, multi-buffer jobs, the tools' argument parsing. Built by clang
# with ASan and UBSan in $(FUZZ_BUILD); tests/fuzz/fuzz-run.sh runs each
# target (FUZZ_TARGETS: some) for FUZZ_SECONDS from a copy of its seeds
# in $(FUZZ_BUILD)/fuzz/<target>/ and fails on any crash or broken check.
# FUZZ_SKIP_KNOWN=ON skips the call patterns of known, unfixed defects.
# tests/ct-msan-deps.sh first installs clang, its sanitizer and libFuzzer
# runtimes and llvm-symbolizer when missing (the same needs as ct-msan).
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_TARGETS ?=
FUZZ_SKIP_KNOWN ?= OFF
fuzz:
	@sh tests/ct-msan-deps.sh $(FUZZ_CC)
	CC=$(FUZZ_CC) cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=Debug \
		-DAESIR_FUZZ=ON -DAESIR_TESTS=OFF -DAESIR_BENCH=OFF \
		-DAESIR_FUZZ_SKIP_KNOWN=$(FUZZ_SKIP_KNOWN) $(CMAKE_FLAGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target aesir_fuzz
	sh tests/fuzz/fuzz-run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The dudect-style timing test, by hand: every available engine and
# operation for DUDECT_SECONDS each; DUDECT_FLAGS adds options, e.g.
# DUDECT_FLAGS="--engine ttable --op encrypt --evict 64".
DUDECT_SECONDS ?= 20
DUDECT_FLAGS ?=
dudect: all
	$(BUILD)/tests/dudect --seconds $(DUDECT_SECONDS) $(DUDECT_FLAGS)

# The cross-architecture matrix (tests/cross-test.sh): aarch64, 32-bit
# PowerPC G4, ppc64le POWER8 and s390x under qemu-user, wasm32 under
# Node.js; the whole test suite on each. CROSS_TARGETS picks some.
CROSS_TARGETS ?=
cross-test:
	sh tests/cross-deps.sh
	sh tests/cross-test.sh $(CROSS_TARGETS)

# aesir's engines compiled to wasm32 (with and without SIMD128), timed
# under Node.js: bench/wasm-speed.sh.
wasm-speed:
	sh tests/cross-deps.sh
	sh bench/wasm-speed.sh

# The Python package (python/README.md): a fresh venv with pinned
# dependencies, a wheel of python/ built by scikit-build-core, installed
# there and tested (pytest), then a short benchmark run. `make test` runs
# the same tests against this build's libaesir.a (the python entry).
# The tool is built first: aesir.chunked's tests check interop with it.
python-test:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target aesir_tool
	AESIR_TOOL=$(abspath $(BUILD))/tools/aesir sh python/tests/wheel-test.sh $(BUILD) $(JOBS)

install: all
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

# clang-format (Debian's clang-format-14 when there is no plain one) on
# every C file but examples/ (README.md quotes example.c line for line,
# test readme_quotes_example); format-check lists the files it would
# change.
CLANG_FORMAT ?= $(shell command -v clang-format || command -v clang-format-14)
FORMAT_FILES = include/*.h src/*/*.[ch] tools/*.[ch] tests/*.[ch] \
	tests/fuzz/*.[ch] bench/*.[ch]
format:
	$(CLANG_FORMAT) -i $(FORMAT_FILES)
format-check:
	@bad=; for f in $(FORMAT_FILES); do \
		$(CLANG_FORMAT) --dry-run --Werror $$f >/dev/null 2>&1 || bad="$$bad $$f"; \
	done; if [ -n "$$bad" ]; then echo "format-check: not formatted:$$bad"; exit 1; fi

clean:
	rm -rf $(BUILD) $(DEBUG_BUILD) $(MSAN_BUILD) $(COV_BUILD) $(TSAN_BUILD) \
		$(FUZZ_BUILD) build-cross
