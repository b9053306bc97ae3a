# netschema — a thin wrapper around CMake. `make demo` and `make test` work on a fresh Debian
# machine: each first installs what is missing (scripts/deps.sh), then configures and builds
# incrementally.
#
#   make demo    build, then run the demo
#   make test    build and run every test, then the same tests under ASan + UBSan, then built
#                for a 32-bit target (scripts/test32.sh; skipped where it cannot be built)
#   make asan    only the sanitizer build of the tests
#   make test32  only the 32-bit build of the tests
#   make bench   build and run the benchmarks
#   make fuzz    run every libFuzzer target (scripts/fuzz.sh) for FUZZ_SECONDS each (default 60), then compile
#                FUZZ_SCHEMAS random schemas (default 1000) from FUZZ_SCHEMA_SEED (default: the time)
#   make golden  regenerate every golden file (diagnostics, JSON, generated C): review the diff!
#   make install PREFIX=/opt/netschema   build, then install netschemac, the runtime, headers,
#                the CMake package and netschema.pc under PREFIX (default /usr/local)
#   make clean   remove the build trees

BUILD      ?= build
ASAN_BUILD ?= build-asan
BUILD32    ?= build-32
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SCHEMAS ?= 1000
FUZZ_SCHEMA_SEED ?= $(shell date +%s)
PREFIX     ?= /usr/local
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE      ?= cmake
CTEST      ?= ctest
MAKEFLAGS  += --no-print-directory

# configure(dir, extra cmake args): configure once; later builds re-run CMake by themselves.
configure = test -f $(1)/CMakeCache.txt || { mkdir -p $(1) && $(CMAKE) -S . -B $(1) $(2) >$(1)/configure.log 2>&1; } \
	|| { cat $(1)/configure.log; rm -f $(1)/CMakeCache.txt; exit 1; }
# compile(dir): build quietly; the full log is shown only when the build fails.
compile = $(CMAKE) --build $(1) -j$(JOBS) >$(1)/build.log 2>&1 || { cat $(1)/build.log; exit 1; }

.PHONY: all build demo test unit asan test32 bench fuzz golden install clean

all: build

build:
	@scripts/deps.sh build
	@$(call configure,$(BUILD),)
	@$(call compile,$(BUILD))

demo: build
	@./$(BUILD)/examples/cubes/cubes

unit:
	@scripts/deps.sh test
	@$(call configure,$(BUILD),)
	@$(call compile,$(BUILD))
	@$(CTEST) --test-dir $(BUILD) --output-on-failure -j$(JOBS)

test: unit asan test32

asan:
	@scripts/deps.sh test
	@$(call configure,$(ASAN_BUILD),-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DNETSCHEMA_SANITIZE=ON -DNETSCHEMA_BUILD_BENCHMARKS=OFF)
	@$(call compile,$(ASAN_BUILD))
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$(CTEST) --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS) --label-exclude 'editors|integration'

test32:
	@scripts/test32.sh $(BUILD32) $(JOBS)

bench: build
	@./$(BUILD)/bench/bench_bits
	@./$(BUILD)/bench/bench_build
	@./$(BUILD)/bench/bench_batch
	@./$(BUILD)/bench/bench_compile
	@./$(BUILD)/bench/bench_components
	@./$(BUILD)/bench/bench_fastarray
	@./$(BUILD)/bench/bench_floats
	@./$(BUILD)/bench/bench_replication

fuzz:
	@scripts/deps.sh fuzz
	@$(call configure,$(FUZZ_BUILD),-DCMAKE_C_COMPILER=clang -DNETSCHEMA_FUZZ=ON -DNETSCHEMA_BUILD_TESTS=OFF)
	@$(CMAKE) --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_targets
	@scripts/fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)
	@$(call configure,$(BUILD),)
	@$(CMAKE) --build $(BUILD) -j$(JOBS) --target netschemac gen_schema
	NS_RANDOM_O2=4 NS_RANDOM_JOBS=$(JOBS) sh tests/compiler/run_random.sh $(BUILD)/compiler/netschemac \
		$(BUILD)/tests/compiler/gen_schema runtime/include $(FUZZ_SCHEMAS) $(FUZZ_SCHEMA_SEED)

golden: build
	@sh tests/compiler/run_golden.sh errors $(BUILD)/compiler/netschemac tests/compiler/errors --regenerate
	@sh tests/compiler/run_golden.sh json $(BUILD)/compiler/netschemac idl/examples tests/golden/json --regenerate
	@sh tests/compiler/run_golden.sh c $(BUILD)/compiler/netschemac tests/golden/c . --regenerate

install: build
	@$(CMAKE) --install $(BUILD) --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(BUILD32) $(FUZZ_BUILD)
