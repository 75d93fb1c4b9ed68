# Fieldhouse. `make run` and `make test` do all the set-up a fresh machine needs.
SHELL := /bin/bash
DATA_DIR ?= ./data
SWIFT_SOURCES := Package.swift Sources Tests Fuzz

.PHONY: run test test-postgres api-check e2e cluster cluster-check soak bench bench-cluster fuzz format lint deps build clean

## run: install what is missing, build, seed demo data on first run, and serve on http://127.0.0.1:8080
run: deps
	swift build
	FIELDHOUSE_DATA_DIR=$(DATA_DIR) .build/debug/fieldhouse seed
	FIELDHOUSE_DATA_DIR=$(DATA_DIR) .build/debug/fieldhouse serve

## test: install what is missing (Debian packages, the test SMTP and push servers) and run the whole suite on SQLite
test: deps
	scripts/test-tools.sh
	swift test

## test-postgres: the whole suite against a private, throw-away PostgreSQL 15 cluster, then two real
## server processes sharing 400 jobs while one is killed (scripts/two-process-jobs.sh)
test-postgres: deps
	scripts/test-tools.sh
	scripts/with-postgres.sh swift test $(if $(FIELDHOUSE_PREBUILT),--skip-build)
	scripts/with-postgres.sh scripts/two-process-jobs.sh

## api-check: the device API against its OpenAPI document: schemathesis with every check and a fixed seed
## (three minutes at most) on a scratch server with demo data, then promtool on /metrics
api-check: deps
	$(if $(FIELDHOUSE_PREBUILT),,swift build)
	scripts/api-check.sh

## e2e: the browser journeys (e2e/) in headless Chromium at desktop and phone size, against a scratch server
e2e: deps
	scripts/e2e.sh

## cluster: the scaled set-up on one machine: a private PostgreSQL, two app processes sharing one data
## directory, nginx in front (deploy/nginx/fieldhouse.conf) on a free port, demo data; Ctrl-C stops it all
cluster: deps
	scripts/cluster.sh

## cluster-check: the browser journeys, then a smoke test of what only the cluster can get wrong, against make cluster
cluster-check: deps
	scripts/cluster.sh scripts/cluster-check.sh

## soak: release build, make cluster, then 10 minutes of mixed traffic on 64 connections with one
## process killed half way (SOAK_SECONDS, SOAK_CONNECTIONS); prints requests, errors, p50/p99 and memory
soak: deps
	CLUSTER_BUILD=release scripts/cluster.sh scripts/soak.py

## bench: release build, demo data, and wrk figures for the main pages
bench: deps
	scripts/bench.sh

## bench-cluster: the same figures for one release process on SQLite and two on PostgreSQL behind nginx, side by side
bench-cluster: deps
	scripts/bench-cluster.sh

## fuzz: build every libFuzzer harness in Fuzz/ and run each for FUZZ_SECONDS (default 60); crashes go to Fuzz/crashes/
fuzz: deps
	scripts/fuzz.sh

## format: rewrite the Swift sources in the house style (.swift-format; swift-format comes with the toolchain)
format:
	swift format format --in-place --recursive --parallel $(SWIFT_SOURCES)

## lint: check the house style and the layering of features without changing anything; CI fails on any finding
lint:
	swift format lint --strict --recursive --parallel $(SWIFT_SOURCES)
	python3 scripts/layers.py --check
	@# A controller's function over 60 lines is a page builder and small readers waiting to be told apart.
	python3 scripts/function_length.py
	@# The time comes from the app's clock (Core/AppClock.swift), so tests can set it; see CONTRIBUTING.md.
	@! grep -rnE 'Date\(\)|Date\.now|timeIntervalSinceNow' Sources/App Tests/AppTests \
		| grep -vE '^(Sources/App/Core/AppClock\.swift|Tests/AppTests/Helpers/WithApp\.swift):' \
		| sed 's/$$/   <- read the time from the app clock (req.now, app.clock)/' | grep .
	@# Numbers people read follow their language (a decimal comma in Portuguese), so numbers, days and months
	@# are written in Core/Format.swift, which also keeps what machines read (forms, URLs, files) with a point.
	@# FieldhouseKit writes for machines only; its one String(format:) is iCalendar's GEO, which wants a point.
	@! grep -rnE 'String\(format:|format: "[^"]*%' Sources/App Sources/FieldhouseKit \
		| grep -vE '^Sources/App/Core/Format\.swift:|^Sources/FieldhouseKit/ICalendar\.swift:.*"GEO:|^[^:]+:[0-9]+:[[:space:]]*//' \
		| sed 's/$$/   <- format in Sources\/App\/Core\/Format.swift (Format.number, .hours, .machineNumber, .coordinate, .isoDay, .hex)/' | grep .
	@! grep -rnE 'WallClock\.(shortMonths|shortWeekdays|months|weekdays)\b|Format\.shortMonth\(' Sources/App | grep -vE '^Sources/App/Core/Format\.swift:' \
		| sed 's/$$/   <- write days and months through Format (Format.day, .dayAndMonth, .weekdayAndDay, .monthAndYear, .weekdayName)/' | grep .
	@! grep -rnE '"(Jan(uary)?|Feb(ruary)?|Mar(ch)?|Apr(il)?|May|June?|July?|Aug(ust)?|Sep(tember)?|Oct(ober)?|Nov(ember)?|Dec(ember)?|(Sun|Mon|Tues?|Wed(nes)?|Thu(rs)?|Fri|Sat(ur)?)(day)?)"' Sources/App Sources/FieldhouseKit \
		| grep -vE '^Sources/App/Core/Format\.swift:|^Sources/FieldhouseKit/WallClock\.swift:|^[^:]+:[0-9]+:[[:space:]]*//' \
		| sed 's/$$/   <- month and weekday names are WallClock'"'"'s, written through Format (Format.monthName, .shortMonth, .weekdayName)/' | grep .
	@! grep -rnE 'DateFormatter|FormatStyle|\.formatted\(' Sources/App Sources/FieldhouseKit \
		| grep -vE '^Sources/App/Core/Format\.swift:|^[^:]+:[0-9]+:[[:space:]]*///?' \
		| sed 's/$$/   <- write dates through Format (Format.day, .longDay, .when, .machine), not Foundation'"'"'s formatters/' | grep .
	@! grep -rn 'TimeZone(identifier:' Sources/App Sources/FieldhouseKit | grep -v '^Sources/FieldhouseKit/TimeZone+Named\.swift:' \
		| sed 's/$$/   <- use TimeZone.named(_:) (UTC for an unknown name), .known(_:) or .utc (FieldhouseKit\/TimeZone+Named.swift)/' | grep .
	@! grep -rnE 'struct [A-Za-z]*Option: Encodable' Sources/App | grep -v '^Sources/App/Core/SelectOption\.swift:' \
		| sed 's/$$/   <- use SelectOption (Core\/SelectOption.swift) for a choice on a page/' | grep .
	@# Fluent's transaction closure runs in a task of its own, without the request's language.
	@! grep -rnE '\.transaction \{' Sources/App | sed 's/$$/   <- use inTransaction (Core\/Database+Language.swift), which keeps the language/' | grep .
	@# The features are listed once (routes.swift) and kept on the app by configure; the rest reads app.features.
	@! grep -rn 'Features\.all' Sources/App | grep -vE '^Sources/App/(configure|routes)\.swift:' \
		| sed 's/$$/   <- read the features from app.features (or req.application.features)/' | grep .
	@! grep -rn 'as! any SQLDatabase' Sources/App Tests/AppTests | grep -v '^Sources/App/Core/Database+SQL\.swift:' \
		| sed 's/$$/   <- use db.sql (Core\/Database+SQL.swift)/' | grep .

deps:
	@scripts/install-deps.sh

build: deps
	swift build

clean:
	rm -rf .build
