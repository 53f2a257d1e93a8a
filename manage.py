#!/usr/bin/env python
import os
import sys

# Commands that open no database or cache connection: they run without the embedded servers (the image build's
# collectstatic among them).
WITHOUT_SERVERS = {"check", "collectstatic", "diffsettings", "findstatic", "generate_profiles", "help", "version"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "talentdb.settings")
    command = sys.argv[1] if len(sys.argv) > 1 else "help"  # Django reads the subcommand there too
    if not command.startswith("-") and command not in WITHOUT_SERVERS:
        from talentdb import embedded

        embedded.start()
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
