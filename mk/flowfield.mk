# flowfield.mk - the flow fields' C oracle (spec/c/flowfield_oracle.c): fields
# against a plain reference and brute force, bit for bit.
# spec/flowfield_oracle_spec.lua builds and runs it; `make flowfield-oracle`
# runs it alone.
.PHONY: flowfield-oracle
build/spec/flowfield_oracle: spec/c/flowfield_oracle.c spec/c/oracle.h $(CORE_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -pthread -Icsrc -o $@ spec/c/flowfield_oracle.c $(CORE_SRC) -lm

flowfield-oracle: build/spec/flowfield_oracle
	build/spec/flowfield_oracle
