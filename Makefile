# Thin wrapper around CMake. `make` builds Release (-O3) into build/;
# `make debug` builds with ASan + UBSan into build-debug/.
BUILD ?= build
DEBUG_BUILD ?= build-debug
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
CTEST_FLAGS ?= --output-on-failure

.PHONY: all debug test test-debug speed install clean format

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

speed: all
	$(BUILD)/aesir info
	$(BUILD)/aesir speed

install: all
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

format:
	clang-format -i include/*.h src/*/*.[ch] tools/*.c tests/*.c

clean:
	rm -rf $(BUILD) $(DEBUG_BUILD)
