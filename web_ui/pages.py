"""The pages the tablets load. The page renders today's state; the stream keeps it current."""

from flask import Blueprint, render_template

from .helpers import desk

bp = Blueprint("pages", __name__, template_folder="templates")


@bp.get("/")
def index():
    return render_template("pages/index.html", state=desk().table.state())
