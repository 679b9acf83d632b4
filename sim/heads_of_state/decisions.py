"""Encodings of the decisions a Heads of State bot takes (rules H12), shared by the rules kernels
that ask and the bot families (strategies/heads_of_state/decide.py) that answer.

The rules code writes every legal decision of a decision point into ``context.moves[:n]`` (one
row each, buffer events.MAX_MOVES x 4) and asks ``decide.choose`` with the decision kind ``D_*``.
Move row layouts per decision kind (columns 0..3):
  D_OPTION   (option code)                        D_TAKE   (display slot or -1 = deck, card type)
  D_RAISE    (box or -1 = stop, rank)             D_PAY    (attribute replaced by a courtesan or -1)
  D_BTAKE    (betrayal slot or -1 = deck, type)   D_BPLAY  (box or -1 = stop, card a, card b or -1)
  D_REFILL   (rank or -1 = leave empty)           D_DISCARD / D_BDISCARD (card type)
  D_TAKE_ORDER (0 = betrayal card first, 1 = character card first; Q7 player_choice only)
  D_END_REFILL (box or -1 = stop, rank; Q8 deferred only: refills after the last betrayal play,
               each followed by a D_PAY decision; greedy ranks them like D_RAISE)
"""
(D_OPTION, D_TAKE, D_RAISE, D_PAY, D_BTAKE, D_BPLAY, D_REFILL, D_DISCARD, D_BDISCARD,
 D_TAKE_ORDER, D_END_REFILL) = range(11)
