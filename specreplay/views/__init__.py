"""The app layer (Streamlit): the shell, the page scripts and the helpers they share. Installed as specreplay.views.

Page scripts are run by Streamlit through the shell's navigation (shell.py), never imported.
"""
