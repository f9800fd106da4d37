#!/usr/bin/env python3
"""Fills translations/trainbench_en.ts, English's plural forms only (lupdate -pluralonly), after
`make update_translations`: each tr("... %n epoch(s) ...", nullptr, n) with its singular and plural."""
import sys

from fill_es import fill

EN = {
    "%1 trains with its own settings: %2 at a learning rate of %3, batch %4, %n epoch(s) (an image model gets its settings back)": [
        "%1 trains with its own settings: %2 at a learning rate of %3, batch %4, %n epoch (an image model gets its settings back)",
        "%1 trains with its own settings: %2 at a learning rate of %3, batch %4, %n epochs (an image model gets its settings back)",
    ],
    "Training: %n replica(s) in sync, global batch %1.": [
        "Training: %n replica in sync, global batch %1.",
        "Training: %n replicas in sync, global batch %1.",
    ],
    "step decay ×%1 every %n epoch(s)": ["step decay ×%1 every epoch", "step decay ×%1 every %n epochs"],
    "reduce on plateau of %1: ×%2 after %n epoch(s), minimum %3": [
        "reduce on plateau of %1: ×%2 after %n epoch, minimum %3",
        "reduce on plateau of %1: ×%2 after %n epochs, minimum %3",
    ],
    "%Ln image(s) of class %1 predicted as %2": [
        "%Ln image of class %1 predicted as %2",
        "%Ln images of class %1 predicted as %2",
    ],
    "%1 threads on %n core(s): the same weights as on fewer threads, but the threads take turns on the cores, so it trains no faster than cpu:%n": [
        "%1 threads on %n core: the same weights as on fewer threads, but the threads take turns on the cores, so it trains no faster than cpu:%n",
        "%1 threads on %n cores: the same weights as on fewer threads, but the threads take turns on the cores, so it trains no faster than cpu:%n",
    ],
}

if __name__ == "__main__":
    sys.exit(1 if fill(sys.argv[1] if len(sys.argv) > 1 else "translations/trainbench_en.ts", EN) else 0)
