"""The admin classes built of several apps' parts (talentdb/admin.py): composed from each app's mixin and registered
once, in the top layer, whatever the order of INSTALLED_APPS."""

from django.contrib import admin

from exports.admin import ExportingCandidateAdmin, ExportingShortlistAdmin, ExportSlotMixin
from jobs.admin.similar import similar_candidates_panel
from privacy.admin import CANDIDATE_ACTIONS, CandidatePrivacyActions
from profiles.admin import candidates, working_lists
from profiles.models import Candidate, Shortlist
from talentdb import admin as composed


def test_the_candidate_admin_registered_is_the_domains_with_each_apps_share():
    registered = admin.site.get_model_admin(Candidate)

    assert type(registered) is composed.CandidateAdmin
    assert composed.CandidateAdmin.__bases__ == (
        CandidatePrivacyActions,
        ExportingCandidateAdmin,
        candidates.CandidateAdmin,
    )
    assert registered.actions == [*candidates.CandidateAdmin.actions, *CANDIDATE_ACTIONS]


def test_a_csv_stream_of_either_list_takes_an_export_slot_before_the_domain_streams_it():
    registered = admin.site.get_model_admin(Shortlist)

    assert type(registered) is composed.ShortlistAdmin
    assert composed.ShortlistAdmin.__bases__ == (ExportingShortlistAdmin, working_lists.ShortlistAdmin)
    for model_admin in (composed.CandidateAdmin, composed.ShortlistAdmin):
        assert model_admin.csv_stream is ExportSlotMixin.csv_stream


def test_the_profile_shows_the_panels_the_top_layer_lists():
    assert admin.site.candidate_panels == [similar_candidates_panel]


def test_the_domain_admins_are_registered_only_as_composed():
    registered = {type(model_admin) for model_admin in admin.site._registry.values()}

    assert candidates.CandidateAdmin not in registered
    assert working_lists.ShortlistAdmin not in registered
