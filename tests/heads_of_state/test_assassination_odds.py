"""§4.4 step 3: assassination success rate 3/4 (3 own cubes + 1 target cube), over >= 100,000
attempts from complete games, inside a Wilson score interval (z = 4.4, false alarm ~1e-5)."""
import math

from sim.heads_of_state.engine import ENGINE

Z = 4.4


def wilson(successes, n, z=Z):
    player = successes / n
    centre = (player + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(player * (1 - player) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def test_assassination_success_rate_is_three_quarters(setup):
    p_theory = setup.data.own_cubes / (setup.data.own_cubes + setup.data.target_cubes)
    assert p_theory == 0.75
    bots = [ENGINE.resolve_bot("random")] * 4
    t = ENGINE.play_chunk(setup, 4, bots, 2024, 0, 4500)["betrayals"]
    assassin = t["card_type"] == 0
    n = int(assassin.sum())
    assert n >= 100_000
    low, high = wilson(int(t["success"][assassin].sum()), n)
    assert low <= p_theory <= high, (low, high)
    for capital in (0, 1):                           # province (1 assassin) and capital (2 assassins)
        sel = assassin & (t["capital"] == capital)
        assert (t["cards_spent"][sel] == 1 + capital).all()
        low, high = wilson(int(t["success"][sel].sum()), int(sel.sum()))
        assert low <= p_theory <= high
    country = ~assassin                              # country cards never fail
    assert country.sum() > 0 and t["success"][country].all()
