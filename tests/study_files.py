"""Files the study tests share: a tiny two-player Louis XIV experiment of greedy mirror games."""
from pathlib import Path

import yaml


def write_two_greedy_experiment(folder: Path, games: int = 40, chunk_size: int = 20) -> Path:
    """``folder/two_greedy.yaml``: greedy against greedy at 2 players, ``games`` games, seed 3."""
    path = Path(folder) / "two_greedy.yaml"
    path.write_text(yaml.safe_dump({"name": "two_greedy", "game": "louis-xiv", "players": [2], "bots": ["greedy"],
                                    "matchups": "with_repeats", "games_per_matchup": games, "seed": 3, "jobs": 1,
                                    "chunk_size": chunk_size}))
    return path
