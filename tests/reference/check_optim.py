#!/usr/bin/env python3
"""check_optim.py — ew::AdamW (core/train/optim.h) against torch.optim.AdamW, LambdaLR and
torch.nn.utils.clip_grad_norm_ (Debian's python3-torch), through tests/reference/optim_probe.

Random problems: 2–5 parameter tensors (some with weight decay, some without), 30–80 steps of
random gradients whose scale varies over four orders of magnitude (so clipping switches on and
off), random hyper-parameters with warm-up and linear decay. After every step each parameter
must match PyTorch's to |ours − torch| ≤ 1e-6·max|torch| + 1e-7 (float32 arithmetic in a
slightly different order: torch forms the bias corrections and the learning rate in double);
the learning rate to 1e-6 relative, the gradient norm to 1e-5 relative, the clip decision
exactly. Bad hyper-parameters must be refused with a message naming them.

Usage: check_optim.py --probe build/native-release/tests/optim_probe [--cases N] [--seed S]
"""
import argparse
import json
import subprocess
import sys

import numpy as np
import torch


def sched(c, t):
    """The schedule optim.h documents, for step t = 1, 2, …"""
    if c["warmup_steps"] > 0 and t <= c["warmup_steps"]:
        return c["lr"] * t / c["warmup_steps"]
    if c["total_steps"] <= 0 or c["total_steps"] == c["warmup_steps"]:
        return c["lr"]
    left = max(0, c["total_steps"] - t)
    frac = left / (c["total_steps"] - c["warmup_steps"])
    return c["lr"] * (c["min_lr_ratio"] + (1 - c["min_lr_ratio"]) * frac)


def run_probe(probe, problem):
    r = subprocess.run([probe], input=json.dumps(problem), capture_output=True, text=True)
    return r.returncode, json.loads(r.stdout)


def torch_run(problem):
    c = problem["config"]
    ps = [torch.tensor(p["value"], dtype=torch.float32, requires_grad=True) for p in problem["params"]]
    groups = [{"params": [p for p, q in zip(ps, problem["params"]) if q["decay"]], "weight_decay": c["weight_decay"]},
              {"params": [p for p, q in zip(ps, problem["params"]) if not q["decay"]], "weight_decay": 0.0}]
    groups = [g for g in groups if g["params"]]
    opt = torch.optim.AdamW(groups, lr=c["lr"], betas=(c["beta1"], c["beta2"]), eps=c["eps"])
    lam = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: sched(c, e + 1) / c["lr"])
    out = []
    for step in problem["grads"]:
        for p, g in zip(ps, step):
            p.grad = torch.tensor(g, dtype=torch.float32)
        norm = float(torch.nn.utils.clip_grad_norm_(ps, c["clip_norm"])) if c["clip_norm"] > 0 else None
        lr = opt.param_groups[0]["lr"]
        opt.step()
        lam.step()
        out.append({"lr": lr, "grad_norm": norm, "params": [p.detach().numpy().copy() for p in ps]})
    return out


def make_problem(rng):
    steps = int(rng.integers(30, 81))
    warm = int(rng.integers(0, 10))
    c = {"lr": float(10 ** rng.uniform(-4, -1)), "beta1": float(rng.choice([0.9, 0.8, 0.0])),
         "beta2": float(rng.choice([0.999, 0.98, 0.95])), "eps": float(rng.choice([1e-8, 1e-6])),
         "weight_decay": float(rng.choice([0.0, 0.01, 0.1])), "warmup_steps": warm,
         "total_steps": int(rng.choice([0, steps, steps + 20])), "min_lr_ratio": float(rng.choice([0.0, 0.1])),
         "clip_norm": float(rng.choice([1.0, 0.5, 5.0]))}
    sizes = rng.integers(1, 40, size=int(rng.integers(2, 6)))
    params = [{"value": rng.normal(0, 1, n).astype(np.float32).tolist(), "decay": bool(rng.integers(0, 2))} for n in sizes]
    grads = [[(rng.normal(0, 1, n) * 10 ** rng.uniform(-3, 1)).astype(np.float32).tolist() for n in sizes]
             for _ in range(steps)]
    return {"config": c, "params": params, "grads": grads}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probe", required=True)
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    failures, compared, worst, clipped = 0, 0, 0.0, 0
    for case in range(a.cases):
        prob = make_problem(rng)
        code, ours = run_probe(a.probe, prob)
        if code != 0:
            print(f"case {case}: probe failed: {ours}")
            failures += 1
            continue
        ref = torch_run(prob)
        for t, (o, r) in enumerate(zip(ours, ref)):
            where = f"case {case} step {t + 1}"
            if abs(o["lr"] - r["lr"]) > 1e-6 * abs(r["lr"]) + 1e-12:
                print(f"{where}: lr {o['lr']} vs torch {r['lr']}")
                failures += 1
            if r["grad_norm"] is not None:
                if abs(o["grad_norm"] - r["grad_norm"]) > 1e-5 * r["grad_norm"] + 1e-9:
                    print(f"{where}: grad norm {o['grad_norm']} vs torch {r['grad_norm']}")
                    failures += 1
                clipped += o["clip_scale"] < 1.0
                if (o["clip_scale"] < 1.0) != (r["grad_norm"] > prob["config"]["clip_norm"]):
                    print(f"{where}: clip decision differs (norm {r['grad_norm']}, max {prob['config']['clip_norm']})")
                    failures += 1
            for k, (po, pr) in enumerate(zip(o["params"], r["params"])):
                po = np.asarray(po, dtype=np.float64)
                pr = pr.astype(np.float64)
                allow = 1e-6 * np.max(np.abs(pr)) + 1e-7
                err = np.max(np.abs(po - pr))
                worst = max(worst, err / allow)
                compared += 1
                if err > allow:
                    i = int(np.argmax(np.abs(po - pr)))
                    print(f"{where} param {k}[{i}]: {po[i]!r} vs torch {pr[i]!r} (err {err:.3g} > {allow:.3g})")
                    failures += 1
    # Bad hyper-parameters are refused with a message that names them.
    for key, bad in [("lr", 0.0), ("lr", -1.0), ("lr", 1e9), ("beta1", 1.0), ("beta2", -0.1), ("eps", 0.0),
                     ("weight_decay", 2.0), ("clip_norm", -1.0), ("warmup_steps", -3)]:
        prob = make_problem(rng)
        prob["config"][key] = bad
        code, out = run_probe(a.probe, prob)
        name = "learning rate" if key == "lr" else key
        if code == 0 or name not in out.get("error", ""):
            print(f"bad {key}={bad}: expected an error naming it, got {out}")
            failures += 1
    print(f"AdamW vs torch.optim.AdamW: {a.cases} problems, {compared} parameter snapshots, "
          f"{clipped} clipped steps, worst error {worst:.3f} of the allowance")
    print(f"optimizer checks: {'failed' if failures else 'all passed'} ({failures} mismatches)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
