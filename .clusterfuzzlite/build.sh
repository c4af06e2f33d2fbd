#!/bin/bash -eu
# ClusterFuzzLite: the same build as OSS-Fuzz (Fuzz/oss-fuzz/build.sh).
exec "$SRC/trustsuite/Fuzz/oss-fuzz/build.sh"
