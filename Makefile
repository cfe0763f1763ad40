# wgscan: the two commands of the README, and a few more.
#   make          build (Release) into build/
#   make run      install dependencies, build, run the demo (the main job)
#   make test     install dependencies, build, run every test, then the sanitizer build's
#   make asan     the ASan/UBSan build and its tests alone
#   make deps     install dependencies only (apt, npm ci)
#   make clean

BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
# The sanitizer run repeats the whole suite with sizes up to ~1M: ASan slows the host
# side, and the large sizes are already covered by the optimised run. LeakSanitizer is
# off: its stop-the-world tracer crashed (signal 11) at exit of a process whose
# SwiftShader worker threads run on fibers, failing clean runs at random.
ASAN_MAX_N ?= 1100000

.PHONY: all build run test asan deps clean

all: build

deps:
	./scripts/install-deps.sh

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)

run: deps build
	./$(BUILD)/wgscan demo

test: deps build
	cd $(BUILD) && ctest --output-on-failure
	$(MAKE) asan

asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWGSCAN_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && WGSCAN_TEST_MAX_N=$(ASAN_MAX_N) \
	  ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
