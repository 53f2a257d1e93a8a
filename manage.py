#!/usr/bin/env python
import os
import sys

# Commands that open no database or cache connection: they run without the embedded servers (the image build's
# collectstatic among them).
WITHOUT_SERVERS = {"check", "collectstatic", "diffsettings", "findstatic", "generate_profiles", "help", "version"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talentdb.settings")
    from talentdb import embedded

    embedded.load_dotenv()  # what .env configures counts as configured
    if "DEBUG" not in os.environ and not os.environ.get("SECRET_KEY") and not os.environ.get("DATABASE_URL"):
        # Nothing configured: a checkout on the embedded servers, run as `make run` runs it (DEBUG=1, the development
        # secret), so that the README's commands work as written in a new shell. A deployment names its database and
        # its secret, and keeps DEBUG off and the secret required.
        os.environ["DEBUG"] = "1"
    command = sys.argv[1] if len(sys.argv) > 1 else "help"  # Django reads the subcommand there too
    if not command.startswith("-") and command not in WITHOUT_SERVERS:
        embedded.start()
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
