# env.sh - sourced by spec/fuzz/run.sh and spec/fuzz/fuzz.sh: where each
# mode's module lives and how its interpreter is started.

# build_dir MODE LUA
build_dir() {
  case $1 in
    asan) echo "build/asan-$2" ;;
    valgrind) echo "build/vg-$2" ;;
    plain) echo "build/$2" ;;
    *) echo "unknown mode '$1' (asan, valgrind or plain)" >&2; return 1 ;;
  esac
}

# The ASan runtime of the compiler that built the module: the interpreter is
# not instrumented, so the runtime has to be loaded first, by LD_PRELOAD.
asan_runtime() {
  case ${SAN_CC:-gcc} in
    *clang*) "${SAN_CC}" -print-file-name=libclang_rt.asan-x86_64.so ;;
    *) "${SAN_CC:-gcc}" -print-file-name=libasan.so ;;
  esac
}

# run_wrapped MODE LUA ARGS...: runs LUA ARGS... under MODE's tool.
#  - detect_leaks: Lua 5.4 and LuaJIT close their state on busted's
#    os.exit(code, true), so every world is collected and a leak is real.
#  - LuaJIT allocates its own heap with mmap (not malloc), so ASan only sees
#    the module's malloc'd memory there, not Lua's userdata; the Lua 5.4
#    runs, whose allocator is realloc/free, cover the userdata side.
run_wrapped() {
  mode=$1 lua=$2
  shift 2
  case $mode in
    asan)
      rt=$(asan_runtime)
      [ -f "$rt" ] || { echo "no ASan runtime for ${SAN_CC:-gcc}" >&2; return 1; }
      LD_PRELOAD="$rt" \
      ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}" \
      UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
        "$lua" "$@"
      ;;
    valgrind)
      # LuaJIT's JIT is slow under memcheck (its machine code is re-checked
      # as it is written) and is not what we test: interpreter only, unless
      # STEER_VALGRIND_JIT=1
      jopt=
      case $lua in *luajit*) [ "${STEER_VALGRIND_JIT:-0}" = 1 ] || jopt=-joff ;; esac
      # origins only explain an error found (make valgrind-ci leaves them
      # out: a third of memcheck's time)
      valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite --track-origins="${STEER_VG_ORIGINS:-yes}" \
        -q "$lua" $jopt "$@"
      ;;
    plain) "$lua" "$@" ;;
  esac
}
