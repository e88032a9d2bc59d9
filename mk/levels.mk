# levels.mk - the geometry module's C oracle (spec/c/geometry_oracle.c):
# indexed queries against brute force, bit for bit. spec/levels_spec.lua
# builds and runs it; `make geometry-oracle` runs it alone.
GEO_SRC = csrc/alloc.c csrc/geo_index.c csrc/geometry.c csrc/raycast.c csrc/contain.c \
  csrc/tiles.c

.PHONY: geometry-oracle
build/spec/geometry_oracle: spec/c/geometry_oracle.c $(GEO_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -Icsrc -o $@ spec/c/geometry_oracle.c $(GEO_SRC) -lm

geometry-oracle: build/spec/geometry_oracle
	build/spec/geometry_oracle
