#!/usr/bin/env bash
# llama.cpp's llama-server and llama-quantize, built from the llama.cpp tree vendored in the llama-cpp-python sdist
# on PyPI (pinned by version and sha256), into DEST/bin. Reused when DEST/bin/llama-server exists.
# GGML_NATIVE=ON tunes the build for this machine's CPU: build it on the machine that runs it. AMX is left out
# (-mno-amx-*): these machines report AMX, and ggml's AMX kernels segfault here on the first matmul
# (ggml_backend_amx_mul_mat, seen with the Q4_K_M model); the AVX-512 and repacked kernels run.
set -euo pipefail
DEST=$1
VERSION=0.3.36
SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
PY=${PY:-python3}
[ -x "$DEST/bin/llama-server" ] && [ -x "$DEST/bin/llama-quantize" ] && exit 0
mkdir -p "$DEST/src"
SDIST="$DEST/src/llama_cpp_python-$VERSION.tar.gz"
if [ ! -f "$SDIST" ]; then
  printf 'llama-cpp-python==%s --hash=sha256:%s\n' "$VERSION" "$SHA256" > "$DEST/src/requirements.txt"
  "$PY" -m pip download -q --no-deps --no-binary :all: --require-hashes -r "$DEST/src/requirements.txt" -d "$DEST/src"
fi
tar -xzf "$SDIST" -C "$DEST/src"
TREE="$DEST/src/llama_cpp_python-$VERSION/vendor/llama.cpp"
NO_AMX="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
cmake -S "$TREE" -B "$DEST/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$NO_AMX" -DCMAKE_CXX_FLAGS="$NO_AMX" -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF \
  -DGGML_NATIVE=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON > "$DEST/cmake.log"
cmake --build "$DEST/build" -j"$(nproc)" --target llama-server llama-quantize > "$DEST/build.log"
mkdir -p "$DEST/bin"
cp "$DEST/build/bin/llama-server" "$DEST/build/bin/llama-quantize" "$DEST/bin/"
rm -rf "$DEST/build" "$DEST/src/llama_cpp_python-$VERSION"
"$DEST/bin/llama-server" --version
