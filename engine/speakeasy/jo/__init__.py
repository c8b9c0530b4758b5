"""Jo, the official solo bot of Speakeasy (seed 003, design §15): his data (``data``), orders of preference
(``orders``), setup (``setup``), turn (``turn``), actions (``actions``), Mob War defence (``war``) and scoring
(``scoring``)."""
