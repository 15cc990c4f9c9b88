# Thin wrapper around CMake. `make` builds Release (-O3) into build/;
# `make debug` builds with ASan + UBSan into build-debug/.
BUILD ?= build
DEBUG_BUILD ?= build-debug
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
CTEST_FLAGS ?= --output-on-failure

.PHONY: all debug test test-debug speed speed-full speed-check perf-doc \
	install clean format ct-check ct-msan dudect cross-test wasm-speed

all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

debug:
	cmake -S . -B $(DEBUG_BUILD) -DCMAKE_BUILD_TYPE=Debug -DAESIR_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(DEBUG_BUILD) -j $(JOBS)

test: all
	cd $(BUILD) && ctest $(CTEST_FLAGS) -j $(JOBS)

test-debug: debug
	cd $(DEBUG_BUILD) && AESIR_DIFF_CASES=$${AESIR_DIFF_CASES:-1000} ctest $(CTEST_FLAGS) -j $(JOBS)

# The benchmark (bench/): every aesir engine beside every peer library
# installed, the limit row, tables, CSV/JSON and PNG plots in
# $(BUILD)/bench/. speed-deps.sh first installs missing peer -dev packages
# with apt when it can. SPEED_FLAGS adds aesir-bench options, e.g.
# SPEED_FLAGS="--cpb --misalign".
BENCH = $(BUILD)/bench/aesir-bench
SPEED_FLAGS ?=
PLOT = python3 bench/plot.py $(BUILD)/bench || echo "plots skipped (python3 bench/plot.py failed)"

speed:
	@sh bench/speed-deps.sh
	@$(MAKE) --no-print-directory all
	$(BUILD)/aesir info
	$(BENCH) $(SPEED_FLAGS)
	@$(PLOT)

speed-full:
	@sh bench/speed-deps.sh
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
# a program using the default engine never pays.
KEYSETUP_IMPLS = aesir/aesni,aesir/vaes-avx2,aesir/vaes-avx512,openssl,gcrypt,nettle,sodium,ipsec-mb,bearssl,wolfssl,mbedtls
perf-doc: speed-full
	mkdir -p $(BUILD)/bench/keysetup
	$(BENCH) --impls $(KEYSETUP_IMPLS) --ops ctr,cbc-dec --keys 128,192,256 \
	  --sizes 64 --passes 5 --out $(BUILD)/bench/keysetup
	python3 bench/perf_doc.py $(BUILD)/bench docs/PERFORMANCE.md $(BUILD)/bench/keysetup

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

install: all
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

format:
	clang-format -i include/*.h src/*/*.[ch] tools/*.c tests/*.c

clean:
	rm -rf $(BUILD) $(DEBUG_BUILD) $(MSAN_BUILD) build-cross
