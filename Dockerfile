# ring: progress rings as SVG and PNG images, served by URL.
#
# Build:  docker build -t ring .
# Run:    docker run --rm -p 8080:8080 ring
#
# Stage 1 compiles a release binary with the Swift standard library and Foundation linked in
# statically, so stage 2 needs glibc and the system zlib (PNG's deflate), both in
# debian:bookworm-slim (zlib1g is part of its base system), and for live values (src=) the
# system's libcurl (libcurl.so.4), which the fetcher drives, with the CA certificates.

FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product ring --static-swift-stdlib \
    && install -D "$(swift build -c release --show-bin-path)/ring" /out/ring

FROM debian:bookworm-slim
# The PNG engine's fallback fonts, found at their standard paths: Droid Sans Fallback (Chinese,
# Japanese; Apache 2.0) and NanumGothic Bold (Korean; SIL OFL 1.1). Their licences come with
# the packages, in /usr/share/doc/fonts-droid-fallback and /usr/share/doc/fonts-nanum.
# libcurl4 and ca-certificates are left unpinned on purpose: they take security updates, which a
# pinned version would refuse once the archive moves on.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-droid-fallback=1:6.0.1r16-1.1 fonts-nanum=20200506-1 \
        libcurl4 ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/ring /usr/local/bin/ring
# An unprivileged user; the service reads only its font files and writes only to stdout.
USER 10001:10001
ENV PORT=8080 HOST=0.0.0.0
EXPOSE 8080
# No curl in the image: the binary probes itself.
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 CMD ["/usr/local/bin/ring", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/ring", "serve"]
