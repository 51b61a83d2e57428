"""The replay page's inputs: recordings and uploads (source), arms (arms), the player's JSON (payload) and
the one HTML document the player runs in (html). Streamlit-free: the page, the export and the benchmark use them."""
