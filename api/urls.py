from django.urls import path

from api import job_match, job_matches, jobs, privacy, related_skills, root, views

app_name = "api"
urlpatterns = [
    path("", root.ApiRootView.as_view(), name="root"),
    path("candidates/", views.CandidateListView.as_view(), name="candidate-list"),
    path("candidates/export.csv", views.CandidateExportCSVView.as_view(), name="candidate-export-csv"),
    path("candidates/export.jsonl", views.CandidateExportJSONLView.as_view(), name="candidate-export-jsonl"),
    path("candidates/<int:pk>/", views.CandidateDetailView.as_view(), name="candidate-detail"),
    path("candidates/<int:pk>/similar/", job_matches.CandidateSimilarView.as_view(), name="candidate-similar"),
    path("skills/", views.SkillListView.as_view(), name="skill-list"),
    path("skills/<str:slug>/related/", related_skills.RelatedSkillsView.as_view(), name="skill-related"),
    path("repositories/", views.RepositoryListView.as_view(), name="repository-list"),
    path("jobs/match/", job_match.JobMatchView.as_view(), name="job-match"),
    path("jobs/", jobs.JobListView.as_view(), name="job-list"),
    path("jobs/<int:pk>/", jobs.JobDetailView.as_view(), name="job-detail"),
    path("jobs/<int:pk>/pipeline/", jobs.JobPipelineView.as_view(), name="job-pipeline"),
    path("jobs/<int:pk>/matches/", job_matches.JobMatchesView.as_view(), name="job-matches"),
    path("imports/", views.ImportListView.as_view(), name="import-list"),
    path("imports/<int:pk>/", views.ImportDetailView.as_view(), name="import-detail"),
    path("exports/", views.ExportListView.as_view(), name="export-list"),
    path("exports/<int:pk>/", views.ExportDetailView.as_view(), name="export-detail"),
    path("exports/<int:pk>/download", views.ExportDownloadView.as_view(), name="export-download"),
    path("privacy/notices/", privacy.NoticeListView.as_view(), name="privacy-notice-list"),
]
