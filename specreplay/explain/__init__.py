"""The explainer pages' derived tables: the shared rules (derived), recorded sweeps, measured acceptance, the
ladders, break-even, Pareto, the physics ceiling, the roofline, the method chooser, and the bundled recordings each
panel reads. No module here imports Streamlit."""
