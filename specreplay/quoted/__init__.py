"""The articles and the tables they quote: who wrote them, one line that cites a figure, and how every
transcribed CSV in assets/ is read and checked."""
