"""Each interactive chart of the app as one self-contained HTML file (`specreplay export-chart`, and the app's
"download this chart" buttons): the acceptance calculator, the concurrency chart, the ladder, the break-even map.

One module per chart builds its data from the library (no Streamlit); `document` writes the file; `export`
names the charts and reads the app's URL state.
"""
