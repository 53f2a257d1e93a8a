from django.apps import AppConfig


class SearchIndexConfig(AppConfig):
    name = "searchindex"
    verbose_name = "Ranking index"
