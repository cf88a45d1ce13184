#!/usr/bin/env python3
"""Trains a policy network on decisions exported by `parceiro dataset` and exports it to ONNX.

    python3 learn/train_policy.py --data FILE [--data FILE ...] --out MODEL.onnx [--seed N] ...

Called by `parceiro train` (launch/commands/train.ts), which finds a python3 that imports torch
(Debian: apt-get install python3-torch). The network: an MLP (ReLU between dense layers) over the
decision's encoding (game/learned/encode.ts), a softmax over the 40 cards masked by the encoding's
legal block; trained by cross-entropy on the card played. The ONNX graph takes `features` [batch, F]
and gives `probs` [batch, 40] (0 for illegal cards); game/learned/mlp.ts reads the same file's weights
and onnxruntime-node runs it (robot/learned/onnx-policy.ts).

Reproducible from the seed: one thread, torch.manual_seed, a fixed held-out split by game (a game is
held out when a hash of its number and the seed says so, so the decisions of one game are never on both
sides). Writes MODEL.onnx and MODEL.json (the sidecar: features version, data, seed, settings,
accuracy and log-likelihood on the held-out decisions, and a few reference outputs for the tests).
"""

import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch

FORMAT = "parceiro-decisions-1"
LEGAL = 40  # offset of the legal block in the encoding
CARDS = 40


def fail(message):
    print(f"train_policy: error: {message}", file=sys.stderr)
    sys.exit(2)


def read_dataset(path):
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    line = raw[: raw.find(b"\n")] if b"\n" in raw[:65536] else b""
    try:
        header = json.loads(line)
    except ValueError:
        fail(f"{path}: not a dataset of parceiro dataset (no header line; an interrupted export?)")
    if not isinstance(header, dict):
        fail(f"{path}: not a dataset of parceiro dataset (its header line is not an object)")
    if header.get("format") != FORMAT:
        fail(f"{path}: format {header.get('format')!r}, expected {FORMAT!r}")
    for key in ("headerBytes", "rows", "rowFloats"):
        if not isinstance(header.get(key), int) or isinstance(header.get(key), bool) or header[key] < 1:
            fail(f"{path}: its header has no whole number {key}")
    floats = header["rowFloats"]
    if len(raw) < header["headerBytes"] or (len(raw) - header["headerBytes"]) % 4 != 0:
        fail(f"{path}: {len(raw)} bytes do not hold its header and whole floats (a file cut short?)")
    body = np.frombuffer(raw, dtype="<f4", offset=header["headerBytes"])
    if body.size != header["rows"] * floats:
        fail(f"{path}: {body.size} floats for {header['rows']} rows of {floats} (a file cut short?)")
    return header, body.reshape(header["rows"], floats)


def held_out(games, seed, share):
    """A game is held out when a hash of (seed, game) falls under `share`."""
    h = (games.astype(np.uint64) * np.uint64(0x9E3779B1) + np.uint64(seed * 0x85EBCA6B + 1)) % np.uint64(1000003)
    return (h.astype(np.float64) / 1000003.0) < share


class Policy(torch.nn.Module):
    def __init__(self, features, hidden):
        super().__init__()
        sizes = [features] + hidden + [CARDS]
        layers = []
        for i in range(len(sizes) - 1):
            layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
            if i < len(sizes) - 2:
                layers.append(torch.nn.ReLU())
        self.net = torch.nn.Sequential(*layers)

    def logits(self, x):
        mask = x[:, LEGAL : LEGAL + CARDS]
        return self.net(x) + (mask - 1.0) * 1e9

    def forward(self, x):
        return torch.softmax(self.logits(x), dim=1)


def evaluate(model, x, y):
    with torch.no_grad():
        logp = torch.log_softmax(model.logits(x), dim=1)
        top = logp.argmax(dim=1)
        acc = (top == y).double().mean().item()
        ll = logp.gather(1, y.unsqueeze(1)).double().mean().item()
        legal = x[:, LEGAL : LEGAL + CARDS].sum(dim=1)
        uniform_ll = (-torch.log(legal.double())).mean().item()
        choice = legal >= 2
        acc_choice = (top == y)[choice].double().mean().item() if choice.any() else float("nan")
        uniform_choice = (1.0 / legal[choice].double()).mean().item() if choice.any() else float("nan")
    return acc, ll, uniform_ll, acc_choice, uniform_choice


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", action="append", required=True, help="a dataset file (repeatable)")
    p.add_argument("--out", required=True, help="the ONNX file to write (the sidecar goes next to it, .json)")
    p.add_argument("--seed", type=int, default=2311)
    p.add_argument("--hidden", default="128,64", help="hidden layer sizes, comma separated")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--weight-decay", type=float, default=1e-5)
    p.add_argument("--holdout", type=float, default=0.1, help="share of games held out for the accuracy")
    p.add_argument("--only", help="train on the decisions of this `who` only (e.g. person)")
    p.add_argument("--name", help="what the model is, for the sidecar")
    p.add_argument("--command", default="", help="the command line that ran this, for the sidecar")
    a = p.parse_args()

    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    try:
        hidden = [int(h) for h in a.hidden.split(",") if h.strip()]
    except ValueError:
        fail(f"--hidden expects sizes separated by commas, got {a.hidden!r}")
    if any(h < 1 for h in hidden):
        fail(f"--hidden: sizes must be at least 1, got {a.hidden!r}")

    headers, parts = [], []
    offset = 0
    for path in a.data:
        h, rows = read_dataset(path)
        rows = rows.copy()
        f = h["featureCount"]
        if headers and (h["featuresVersion"] != headers[0]["featuresVersion"] or f != headers[0]["featureCount"]):
            fail(f"{path}: features version {h['featuresVersion']} ({f} features) differs from {a.data[0]}'s")
        if a.only is not None:
            if a.only not in h["who"]:
                rows = rows[:0]
            else:
                rows = rows[rows[:, f + 3] == h["who"].index(a.only)]
        rows[:, f + 1] += offset  # game numbers distinct across files
        offset += h["games"]
        headers.append(h)
        parts.append(rows)
    f = headers[0]["featureCount"]
    data = np.concatenate(parts)
    if len(data) < 2:
        fail(f"{len(data)} decision(s) to train on{' of ' + a.only if a.only else ''}: export more games")
    x = torch.from_numpy(np.ascontiguousarray(data[:, :f]))
    y = torch.from_numpy(data[:, f].astype(np.int64))
    games = data[:, f + 1].astype(np.int64)
    test = held_out(games, a.seed, a.holdout)
    if test.all() or not test.any():
        test = np.zeros(len(data), dtype=bool)
        test[len(data) - max(1, len(data) // 10):] = True
    train_idx = torch.from_numpy(np.nonzero(~test)[0])
    test_idx = torch.from_numpy(np.nonzero(test)[0])
    xtr, ytr, xte, yte = x[train_idx], y[train_idx], x[test_idx], y[test_idx]

    model = Policy(f, hidden)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr, weight_decay=a.weight_decay)
    gen = torch.Generator().manual_seed(a.seed)
    t0 = time.time()
    history = []
    for epoch in range(a.epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=gen)
        total = 0.0
        for i in range(0, len(perm), a.batch):
            idx = perm[i : i + a.batch]
            logits = model.logits(xtr[idx])
            loss = torch.nn.functional.cross_entropy(logits, ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        model.eval()
        acc, ll, _, _, _ = evaluate(model, xte, yte)
        history.append({"epoch": epoch + 1, "trainLoss": round(total / len(xtr), 4), "heldOutTop1": round(acc, 4), "heldOutLogLikelihood": round(ll, 4)})
        print(f"epoch {epoch + 1}/{a.epochs}: train loss {total / len(xtr):.4f}, held-out top-1 {100 * acc:.1f}%, ln p {ll:.4f}", file=sys.stderr)
    seconds = time.time() - t0
    model.eval()
    acc, ll, uniform_ll, acc_choice, uniform_choice = evaluate(model, xte, yte)
    train_acc, train_ll, _, _, _ = evaluate(model, xtr, ytr)
    choices = int((xte[:, LEGAL : LEGAL + CARDS].sum(dim=1) >= 2).sum().item())

    out_dir = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(out_dir, exist_ok=True)
    torch.onnx.export(
        model,
        (torch.zeros(1, f),),
        a.out,
        input_names=["features"],
        output_names=["probs"],
        dynamic_axes={"features": {0: "batch"}, "probs": {0: "batch"}},
        opset_version=13,
        do_constant_folding=True,
    )
    # Reference outputs for the tests: the first held-out decisions through torch.
    k = min(4, len(xte))
    with torch.no_grad():
        ref = model(xte[:k]).numpy()
    reference = [
        {"features": [[int(i), float(xte[j, i])] for i in np.nonzero(xte[j].numpy())[0]], "probs": [float(v) for v in ref[j]]}
        for j in range(k)
    ]
    sidecar = {
        "name": a.name or os.path.basename(a.out),
        "model": os.path.basename(a.out),
        "featuresVersion": headers[0]["featuresVersion"],
        "featureCount": f,
        "layers": [f] + hidden + [CARDS],
        "inputs": ["features"],
        "outputs": ["probs"],
        "seed": a.seed,
        "settings": {"epochs": a.epochs, "batch": a.batch, "lr": a.lr, "weightDecay": a.weight_decay, "holdout": a.holdout, "only": a.only},
        "data": [{"file": os.path.basename(path), "rows": h["rows"], "games": h["games"], "who": h["who"], "source": h["source"], "command": h["command"]} for path, h in zip(a.data, headers)],
        "decisions": {"train": int(len(xtr)), "heldOut": int(len(xte))},
        "heldOut": {
            "top1": round(acc, 4),
            "meanLogLikelihood": round(ll, 4),
            "uniformLegalLogLikelihood": round(uniform_ll, 4),
            "decisionsWithAChoice": choices,
            "top1WithAChoice": round(acc_choice, 4),
            "uniformTop1WithAChoice": round(uniform_choice, 4),
        },
        "train": {"top1": round(train_acc, 4), "meanLogLikelihood": round(train_ll, 4)},
        "history": history,
        "trainingSeconds": round(seconds, 1),
        "torch": torch.__version__,
        "command": a.command,
        "reference": reference,
    }
    side = os.path.splitext(a.out)[0] + ".json"
    with open(side, "w") as fh:
        json.dump(sidecar, fh, indent=1)
        fh.write("\n")
    print(json.dumps({"model": a.out, "sidecar": side, "decisions": sidecar["decisions"], "heldOut": sidecar["heldOut"], "seconds": round(seconds, 1)}))


if __name__ == "__main__":
    main()
