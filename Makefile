# Two commands for a newcomer: `make run` and `make test`. Everything else is a helper.
# The venv's interpreter: Debian's python3.11 where it can make a venv, else the first python3.11
# on the PATH. Debian builds it with profile-guided and link-time optimisation into one static
# binary; pyenv's default build (a shared libpython, neither) spends 12% more instructions and
# 8-18% more web CPU on an action (docs/operations.md, "the interpreter's build").
DEBIAN_PYTHON := $(shell /usr/bin/python3.11 -c 'import ensurepip, venv' 2>/dev/null && echo /usr/bin/python3.11)
PYTHON ?= $(or $(DEBIAN_PYTHON),python3.11)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
# Links in emails are built from SITE_URL: by default the address `make run` serves
# (a wildcard HOST is reached at 127.0.0.1). Set SITE_URL for a public name.
LINK_HOST := $(if $(filter 0.0.0.0 ::,$(HOST)),127.0.0.1,$(HOST))
SITE_URL ?= http://$(LINK_HOST):$(PORT)
export SITE_URL
# Everything started through make is development: DEBUG with the public dev SECRET_KEY is allowed
# (config/settings.py refuses it otherwise).
DJANGO_DEV := 1
export DJANGO_DEV

# The Celery worker and beat as `make run` starts them: the log goes to CELERY_LOG, the worker's
# standard output (where the console email backend prints every email the worker sends: turn
# notices, reminders, digests) stays in the `make run` terminal, beside the web server's.
CELERY_LOG ?= var/celery.log
CELERY_SCHEDULE ?= var/celerybeat-schedule
WORKER := CELERY_WORKER_REDIRECT_STDOUTS=false $(BIN)/celery -A config --quiet worker -B \
	--pool=solo --loglevel=INFO --logfile=$(CELERY_LOG) --schedule=$(CELERY_SCHEDULE)

.PHONY: print-site-url print-worker-command run test check loadtest lint jstest typecheck imports pytest pytest-fast bench migrate superuser browser clean

NODE_STAMP := node_modules/.installed-stamp

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# The front end's tools (Biome, TypeScript for `tsc --noEmit`), pinned by package-lock.json.
# Node and npm come from the system (Debian's nodejs and npm: .ci/run installs them).
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

migrate: $(STAMP)
	@mkdir -p var
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_quests
	$(BIN)/python manage.py vapid_keys

print-site-url:
	@echo "$$SITE_URL"

print-worker-command:
	@echo '$(WORKER)'

run: migrate
	@mkdir -p var
	@echo "Starting the Celery worker and beat (log: $(CELERY_LOG); emails print here)..."
	@: > $(CELERY_LOG)
	@$(WORKER) & echo $$! > var/celery.pid
	@echo ""
	@echo "  The Ashen Vault is ready at http://$(HOST):$(PORT)/"
	@echo "  (Ctrl-C stops the web server and the worker)"
	@echo ""
	@trap 'kill $$(cat var/celery.pid) 2>/dev/null; rm -f var/celery.pid' EXIT INT TERM; \
		$(BIN)/python manage.py runserver $(HOST):$(PORT) --noreload

test: lint typecheck imports jstest pytest

# The fast lane for the next engineer: every linter, types, imports, the JS tests and the tests
# without the slow playouts, the browser, the load harness and the fault injection (a few minutes).
check: lint typecheck imports jstest pytest-fast

pytest-fast: $(STAMP)
	$(BIN)/pytest -m "not slow and not browser and not load and not faults"

# The same tools as .pre-commit-config.yaml, over the whole tree.
lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	node_modules/.bin/biome ci
	node_modules/.bin/tsc --noEmit -p jsconfig.json
	$(BIN)/djlint --lint templates

# The board's pure JS model, with Node's own test runner.
jstest:
	node --test tests/js/

typecheck: $(STAMP)
	$(BIN)/mypy apps config tests

imports: $(STAMP)
	$(BIN)/lint-imports

# Never installs system packages: without Chromium the browser tests are skipped (outside CI;
# `make browser` or .ci/run installs it).
# Tests that only compute (the engines' playouts, the API driven in process) run on every core
# (pytest-xdist, a test database and a Redis database per worker); the rest, which start servers
# and workers or wait on clocks, run one at a time after them, on a quiet machine.
PARALLEL_TESTS := tests/games tests/play/test_play_playthrough.py tests/play/test_play_router_texts.py \
	tests/config/test_api_fuzz.py
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
pytest: $(STAMP)
	$(BIN)/pytest -n $(TEST_WORKERS) $(PARALLEL_TESTS)
	$(BIN)/pytest $(addprefix --ignore=,$(PARALLEL_TESTS))

# Browser tests drive Debian's Chromium; Playwright never downloads a browser of its own.
# Asked for explicitly (`make browser`), this installs it with apt when run as root.
browser:
	@test -x /usr/bin/chromium || (command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
		|| echo "Chromium not installed: browser tests will be skipped (outside CI).")

# The production-like stack (config.serve: one uvicorn process per core, a Celery worker) on this machine's
# PostgreSQL and Redis, driven by bots; prints issue 9's figures. Not part of `make test`.
# LOADTEST_DATABASE_URL / LOADTEST_REDIS_URL choose its own database (dropped and created) and
# Redis db; LOADTEST_ARGS passes options (e.g. --games 50 --seconds 30, see --help).
loadtest: $(STAMP)
	$(BIN)/python -m tests.load.loadtest $(LOADTEST_ARGS)

# Each game's engine: apply / legal_actions / seat_view times, HeroQuest's then Legend of Zagor's.
bench: $(STAMP)
	@echo "== HeroQuest =="
	$(BIN)/python -m apps.games.heroquest.engine.bench
	@echo "== Legend of Zagor =="
	$(BIN)/python -m apps.games.zagor.bench

superuser: migrate
	$(BIN)/python manage.py createsuperuser

clean:
	rm -rf $(VENV) node_modules var/db.sqlite3* var/channels.sqlite3* var/celery var/staticfiles
