# SPDX-License-Identifier: MIT
# wgscan: the two commands of the README, and a few more.
#   make          build (Release) into build/
#   make run      install dependencies, build, run the demo (the main job)
#   make test     install dependencies, build, run every test, then the sanitizer build's
#   make asan     the ASan/UBSan build and its tests alone
#   make tsan     the ThreadSanitizer build (gcc -fsanitize=thread) in build-tsan/, and in it
#                 only the thread test (test_threads: contexts created on four threads at
#                 once; the ASan build runs it with the rest). Its own build: TSan cannot be
#                 combined with ASan. The runtime and drivers are not instrumented;
#                 tests/tsan.supp silences what TSan reports inside them. Not part of
#                 `make test` (it compiles the library once more)
#   make test-long  the plain build's ctest with WGSCAN_TEST_LONG=1, on demand (not in
#                 CI): the whole cross products that `make test` takes each part of once
#                 where they repeat one code path (the scan matrix's sizes past 2^20 with
#                 every operator, its 50 single passes at 2^22, every sort distribution at
#                 every size, the sorts in a row at 2^22, the CLI's sort per key type and
#                 per distribution, the browser's whole sort matrix on Chromium)
#   make fuzz     the libFuzzer targets (tests/fuzz, clang, ASan/UBSan) in build-fuzz/, each
#                 run FUZZ_SECONDS (600) in turn; the corpus grows in
#                 tests/fuzz/corpus/<target>/, reproducers land in tests/fuzz/findings/<target>/
#                 (FUZZ_TARGETS="fuzz_scan fuzz_select" runs only those)
#   make fuzz-smoke  the short run of `make test`: each target from its kept corpus, fixed
#                 seed, FUZZ_SMOKE_RUNS (300) inputs or 60 s at most (ctest -L fuzz)
#   make deps     install dependencies only (apt, npm ci)
#   make clean

BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# Tests run two at a time: SwiftShader compiles a pipeline on one thread, and pipelines
# are most of the suite's time (the sanitized suite on 2 cores: 1343 s one at a time,
# 833 s two). The browser tests hold one lock, so only one browser runs at once.
CTEST_JOBS ?= 2
CMAKE_ARGS ?=
# The sanitizer run repeats the whole suite with sizes up to ~1M: ASan slows the host
# side, and the large sizes are already covered by the optimised run. Its tests take one
# of each set of GPU configurations that share a host path (docs/design.md, section 16):
# every pipeline compiles on ASan's allocator there. LeakSanitizer is
# off: its stop-the-world tracer crashed (signal 11) at exit of a process whose
# SwiftShader worker threads run on fibers, failing clean runs at random.
ASAN_MAX_N ?= 1100000
FUZZ_BUILD      ?= build-fuzz
FUZZ_SECONDS    ?= 600
FUZZ_TARGETS    ?=
FUZZ_SMOKE_RUNS ?= 300
FUZZ_FINDINGS   ?= tests/fuzz/findings

.PHONY: all build run test test-long asan tsan fuzz fuzz-build fuzz-smoke deps clean

all: build

deps:
	./scripts/install-deps.sh

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)

run: deps build
	./$(BUILD)/wgscan demo

# The suite's build treats warnings as errors: the fuzzers' clang refuses some C that gcc
# only warns of, and would otherwise fail an hour into CI.
test: CMAKE_ARGS += -DWGSCAN_WERROR=ON
test: deps build
	cd $(BUILD) && ctest -j $(CTEST_JOBS) --output-on-failure
	$(MAKE) asan
	$(MAKE) fuzz-smoke

test-long: deps build
	cd $(BUILD) && WGSCAN_TEST_LONG=1 ctest -j $(CTEST_JOBS) --output-on-failure

asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWGSCAN_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && WGSCAN_TEST_MAX_N=$(ASAN_MAX_N) \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest -j $(CTEST_JOBS) --output-on-failure

# Reports go to files (the test points stderr elsewhere while its threads run) and are
# printed when the run fails.
tsan:
	cmake -S . -B $(TSAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWGSCAN_WASM=OFF -DWGSCAN_PROGRAMS=OFF \
	  -DWGSCAN_EXAMPLES=OFF -DWGSCAN_LAB=OFF "-DCMAKE_C_FLAGS=-fsanitize=thread -fno-omit-frame-pointer" \
	  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread $(CMAKE_ARGS)
	cmake --build $(TSAN_BUILD) --target test_threads -j $(JOBS)
	rm -f $(TSAN_BUILD)/tsan.*
	TSAN_OPTIONS=halt_on_error=1:log_path=$(abspath $(TSAN_BUILD))/tsan:suppressions=$(CURDIR)/tests/tsan.supp \
	  $(TSAN_BUILD)/tests/test_threads || { cat $(TSAN_BUILD)/tsan.* 2>/dev/null; exit 1; }

# The fuzzers' build: clang, libFuzzer, ASan/UBSan (the CMake preset "fuzz").
fuzz-build:
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DWGSCAN_SANITIZE=ON -DWGSCAN_FUZZ=ON -DWGSCAN_WASM=OFF \
	  -DWGSCAN_FUZZ_SMOKE_RUNS=$(FUZZ_SMOKE_RUNS) $(CMAKE_ARGS)
	cmake --build $(FUZZ_BUILD) --target wgscan_fuzzers -j $(JOBS)

fuzz-smoke: fuzz-build
	cd $(FUZZ_BUILD) && ctest -L fuzz -j $(CTEST_JOBS) --output-on-failure

fuzz: fuzz-build
	@status=0; for bin in $(FUZZ_BUILD)/tests/fuzz/fuzz_*; do \
	  name=$$(basename $$bin); [ -x "$$bin" ] && [ -f "$$bin" ] || continue; \
	  if [ -n "$(FUZZ_TARGETS)" ]; then case " $(FUZZ_TARGETS) " in *" $$name "*) ;; *) continue ;; esac; fi; \
	  echo "== $$name: $(FUZZ_SECONDS) s, corpus tests/fuzz/corpus/$$name, findings $(FUZZ_FINDINGS)/$$name"; \
	  tests/fuzz/run.sh $$bin $(FUZZ_SECONDS) tests/fuzz/corpus/$$name $(FUZZ_FINDINGS)/$$name \
	    > $(FUZZ_BUILD)/$$name.log 2>&1 || { status=1; echo "   FOUND something: see $(FUZZ_BUILD)/$$name.log"; }; \
	  grep -E '^(stat::number_of_executed_units|stat::new_units_added)' $(FUZZ_BUILD)/$$name.log | sed 's/^/   /'; \
	done; exit $$status

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)
