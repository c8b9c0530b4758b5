"""Jo, the official solo bot of Speakeasy (seed 003, design §15): his data, setup, turn, actions and scoring."""
