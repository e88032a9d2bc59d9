# make scale: a world of 1,000,000 agents is built and stepped under each
# interpreter; prints its memory per agent.
CHECKS += scale

.PHONY: scale
scale: all
	@bash -c 'p=0; f=0; for lua in $(LUAS); do \
	  out=$$(LUA_PATH="lua/?.lua;lua/?/init.lua;;" LUA_CPATH="build/$$lua/?.so;;" $$lua spec/scale.lua 2>&1); \
	  echo "$$out" | sed "/passed, .* failed$$/d"; \
	  last=$$(echo "$$out" | tail -n 1); \
	  case "$$last" in *" passed, "*" failed") p=$$((p + $${last%% passed*})); f=$$((f + $$(echo $$last | sed "s/.*, \([0-9]*\) failed/\1/"))) ;; \
	  *) f=$$((f + 1)) ;; esac; \
	done; echo "$$p passed, $$f failed"; [ $$f -eq 0 ]'
