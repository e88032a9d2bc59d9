# a program's angular entries through the C API (the turn mode beside them,
# braking without a target agent); spec/limits_angular_spec.lua runs it
.PHONY: turn-entries
build/spec/turn_entries: spec/c/turn_entries.c spec/c/oracle.h $(CORE_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -pthread -Icsrc -o $@ spec/c/turn_entries.c $(CORE_SRC) -lm

turn-entries: build/spec/turn_entries
	build/spec/turn_entries
