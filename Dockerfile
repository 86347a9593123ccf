# Build: the official Swift toolchain image (Swift 6 on Debian bookworm).
FROM swift:6.3-bookworm AS build
# Unpinned on purpose (here and below): bookworm's security updates replace exact versions.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd-dev libsimdjson-dev pkg-config libharfbuzz-dev libicu-dev libssl-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# openapi.yaml and the JavaScript client are embedded in the binary (Sources/TrellisAPI/Resources links to them).
COPY Package.swift openapi.yaml ./
COPY clients/js/trellis.mjs ./clients/js/
COPY Sources ./Sources
COPY Tests ./Tests
# Package.swift declares the TrellisJSONBench and fuzz targets too: SwiftPM checks every target's path.
COPY bench/TrellisJSONBench ./bench/TrellisJSONBench
COPY fuzz/TrellisFuzz ./fuzz/TrellisFuzz
RUN swift build -c release --static-swift-stdlib --product trellis \
    && install -D "$(swift build -c release --show-bin-path)/trellis" /out/trellis

# Run: only the runtime libraries, the fonts text is measured with (the faces of these seven
# packages, found from their dpkg file lists) and the OpenType Sanitizer uploaded fonts pass through
# (opentype-sanitizer; util-linux's prlimit bounds it), as a non-root user.
FROM debian:bookworm-slim
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libmicrohttpd12 libsimdjson14 libstdc++6 libharfbuzz0b libicu72 libssl3 \
        fonts-dejavu-core fonts-dejavu-extra fonts-ipafont-gothic fonts-tlwg-garuda-ttf fonts-nanum \
        fonts-droid-fallback fonts-noto-color-emoji fonts-liberation opentype-sanitizer \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin trellis
COPY --from=build /out/trellis /usr/local/bin/trellis
USER 10001
# The port comes from TRELLIS_PORT, else PORT (as platforms set it), else 8080: no ENV for it here.
ENV TRELLIS_HOST=0.0.0.0
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=2s --retries=3 CMD ["/usr/local/bin/trellis", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/trellis"]
