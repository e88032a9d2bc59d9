# capi.mk - the C API's own checks (spec/c/c_api_review.c: what only C
# callers can reach); spec/review55_spec.lua runs it
build/spec/c_api_review: spec/c/c_api_review.c spec/c/oracle.h $(CORE_SRC) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -pthread -Icsrc -o $@ spec/c/c_api_review.c $(CORE_SRC) -lm
