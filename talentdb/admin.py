"""The admin classes built of several apps' parts, composed and registered here, once, in the top layer.

The domain (``profiles``) defines the candidate and shortlist admins and knows nothing of the apps above it; each app
above gives its share as a mixin: ``exports`` holds CSV streams to the user's export slots and offers an export job
for a selection too large to stream, ``privacy`` adds erasure and access requests, ``jobs`` the profile's "Similar
candidates" panel. Which classes make the registered admin is read here, whatever the order of INSTALLED_APPS.

And the login lockout's admin: django-axes' own, registered here (``AXES_ENABLE_ADMIN`` is off) so that its one action
works. Axes' "Clean up expired attempts" reads ``request.axes_attempt_time``, which axes sets only on the request that
logs in: clicked in the admin, it raised AttributeError. Without that attribute the handler measures expiry from now,
which is what an operator cleaning up means.
"""

from axes.admin import AccessAttemptAdmin as AxesAccessAttemptAdmin
from axes.admin import AccessFailureLogAdmin, AccessLogAdmin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin

from exports.admin import ExportingCandidateAdmin, ExportingShortlistAdmin
from jobs.admin.similar import similar_candidates_panel
from privacy.admin import CANDIDATE_ACTIONS, CandidatePrivacyActions
from profiles.admin import candidates, working_lists
from profiles.models import Candidate, Shortlist


@admin.register(Candidate)
class CandidateAdmin(CandidatePrivacyActions, ExportingCandidateAdmin, candidates.CandidateAdmin):
    actions = [*candidates.CandidateAdmin.actions, *CANDIDATE_ACTIONS]


@admin.register(Shortlist)
class ShortlistAdmin(ExportingShortlistAdmin, working_lists.ShortlistAdmin):
    pass


# The panels of other apps on a candidate's profile page (``TalentDBAdminSite.candidate_panels``), in their order.
admin.site.candidate_panels[:] = [similar_candidates_panel]


@admin.register(AccessAttempt)
class AccessAttemptAdmin(AxesAccessAttemptAdmin):
    @admin.action(description="Clean up expired attempts")
    def cleanup_expired_attempts(self, request, queryset):
        if not hasattr(request, "axes_attempt_time"):
            request.axes_attempt_time = None
        return super().cleanup_expired_attempts(request, queryset)


admin.site.register(AccessLog, AccessLogAdmin)
admin.site.register(AccessFailureLog, AccessFailureLogAdmin)
