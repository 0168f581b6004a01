# The two commands of the README: `make run` (a short demo of every analysis, with charts) and
# `make test`; `make images` redraws the README's pictures.
# Both create the virtual environment .venv and install the package (compiling the Cython
# engines) themselves; later calls reuse it and rebuild only when sources change.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SOURCES := pyproject.toml setup.py $(wildcard ext/*.pyx ext/*.pxd ext/*.pxi ext/*.h)
OUT    ?= results

.PHONY: run test install bench clean images

$(STAMP): $(SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,dask,plot]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	mkdir -p $(OUT)
	$(BIN)/solver thegame simulate --players 1-5 --strategy greedy,reach,planner --games 20000 --seed 1 -o $(OUT)/thegame.csv --histogram $(OUT)/thegame-cards-left.csv --plot $(OUT)/thegame.svg
	$(BIN)/solver plot $(OUT)/thegame-cards-left.csv -o $(OUT)/thegame-cards-left.svg
	$(BIN)/solver blokus selfplay --variant classic --strategy greedy,random,random,random --games 200 --seed 1 -o $(OUT)/blokus-selfplay.csv --plot $(OUT)/blokus-selfplay.svg --heatmap $(OUT)/blokus-heatmap.svg
	$(BIN)/solver blokus perft --variant duo --depth 2
	$(BIN)/solver blokus selfplay --variant trigon-3 --strategy greedy,random,random --games 200 --seed 1 -o $(OUT)/trigon3-selfplay.csv --heatmap $(OUT)/trigon3-heatmap.svg --sgf $(OUT)/trigon3-games.blksgf --sgf-games 3
	$(BIN)/solver blokus3d selfplay --strategy greedy,random,random,random --games 2000 --seed 1 -o $(OUT)/blokus3d-selfplay.csv
	$(BIN)/solver blokus3d puzzle --box 3x3x3 --svg $(OUT)/blokus3d-cube.svg
	$(BIN)/solver puzzle solve tetromino-8x10-no-edge --svg $(OUT)/tetromino-8x10-no-edge.svg --output $(OUT)/tetromino-8x10-no-edge.json
	$(BIN)/solver puzzle solve pentomino-15x16-no-edge --svg $(OUT)/pentomino-15x16-no-edge.svg
	$(BIN)/solver clovece simulate --variant napij-se --players 4 --strategy best,random,runner,hunter --games 20000 --seed 1 -o $(OUT)/clovece.csv --plot $(OUT)/clovece.svg
	$(BIN)/solver squid simulate --players 5 --strategy equilibrium,random,careful,bold,random --games 20000 --seed 1 -o $(OUT)/squid.csv --plot $(OUT)/squid.svg
	@echo "results written to $(OUT)/"

# The README's pictures (docs/img/*.svg); the same commands, seeds and versions give the same files.
images: $(STAMP)
	mkdir -p $(OUT)
	$(BIN)/solver thegame simulate --players 1-5 --strategy greedy,reach,planner --games 20000 --seed 1 -q -o $(OUT)/thegame.csv --plot docs/img/thegame-players.svg
	$(BIN)/solver blokus selfplay --variant classic --strategy greedy --games 1000 --seed 1 -q -o $(OUT)/blokus-greedy.csv --heatmap docs/img/blokus-heatmap.svg

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest
	$(BIN)/python -m pytest bench --benchmark-disable -q

bench: $(STAMP)
	$(BIN)/python -m pytest bench --benchmark-only --benchmark-columns=min,median,mean,ops,rounds

clean:
	rm -rf $(VENV) build dist *.egg-info solver/_ext/*.so ext/*.c $(OUT)
