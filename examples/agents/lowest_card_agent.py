"""A seed 000-style X Nimmt! agent function, for seed000_adapter.py: plays the
card that fits right after a row's last card with the smallest gap, if the
row it goes to will not be taken; otherwise its lowest card."""


def agent_function(percepts):
    my_hand, table = percepts
    best = None
    for number, _points in my_hand:
        fitting = [row for row in table if row[-1][0] < number]
        if not fitting:
            continue
        row = max(fitting, key=lambda r: r[-1][0])
        gap = number - row[-1][0]
        # With X = 4 a row of three cards is taken by the next card.
        if len(row) < 3 and (best is None or gap < best[0]):
            best = (gap, number)
    if best is not None:
        return best[1]
    return min(number for number, _points in my_hand)
