# tsan.mk - two Lua states in two OS threads under ThreadSanitizer (issue
# 11): spec/two_states.c embeds steer in a C host with its own allocator;
# one state flips its test hooks while both step their worlds.
#   make tsan          build/tsan/two_states, ends with "N passed, N failed"

TSAN_CC ?= gcc
TSAN_FLAGS ?= -O1 -g -fno-omit-frame-pointer -fsanitize=thread
TSAN_ROUNDS ?= 3

CHECKS += tsan

.PHONY: tsan

build/tsan/two_states: spec/two_states.c $(CORE_SRC) $(BIND_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(TSAN_CC) $(WARN) $(TSAN_FLAGS) -pthread $$(pkg-config --cflags lua5.4) \
	  -o $@ spec/two_states.c $(CORE_SRC) $(BIND_SRC) \
	  $$(pkg-config --libs lua5.4) -lm

tsan: build/tsan/two_states
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" build/tsan/two_states $(TSAN_ROUNDS)
