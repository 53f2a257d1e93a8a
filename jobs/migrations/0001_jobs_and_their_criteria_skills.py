"""Jobs, their criteria skills and their pipelines (a shortlist each), issue 16."""

import django.contrib.postgres.fields
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('profiles', '0016_pipeline_stages_and_entry_events'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Job',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('title', models.CharField(max_length=200)),
                ('description', models.TextField()),
                ('status', models.CharField(choices=[('open', 'Open'), ('closed', 'Closed')], default='open', max_length=10)),
                ('shared', models.BooleanField(default=False, help_text='Every colleague may see and export it; only you change it.', verbose_name='shared with the team')),
                ('countries', django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=2), blank=True, default=list, help_text='ISO 3166-1 alpha-2', size=None)),
                ('remote', models.BooleanField(blank=True, help_text='Empty: either', null=True)),
                ('min_years_coding', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('keywords', django.contrib.postgres.fields.ArrayField(base_field=models.CharField(max_length=100), blank=True, default=list, size=None)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='jobs', to=settings.AUTH_USER_MODEL)),
                ('pipeline', models.OneToOneField(on_delete=django.db.models.deletion.RESTRICT, related_name='job', to='profiles.shortlist')),
            ],
            options={
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='JobSkill',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('required', 'Required'), ('preferred', 'Preferred'), ('excluded', 'Excluded')], max_length=10)),
                ('min_score', models.PositiveSmallIntegerField(blank=True, help_text='0-10, required skills only', null=True)),
                ('job', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='skills', to='jobs.job')),
                ('skill', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='profiles.skill')),
            ],
            options={
                'ordering': ['job', 'kind', 'id'],
            },
        ),
        migrations.AddConstraint(
            model_name='job',
            constraint=models.CheckConstraint(condition=models.Q(('min_years_coding__lte', 80)), name='job_min_years_coding_range'),
        ),
        migrations.AddConstraint(
            model_name='jobskill',
            constraint=models.UniqueConstraint(fields=('job', 'skill'), name='jobskill_unique_job_skill'),
        ),
        migrations.AddConstraint(
            model_name='jobskill',
            constraint=models.CheckConstraint(condition=models.Q(('min_score__isnull', True), models.Q(('min_score__gte', 0), ('min_score__lte', 10)), _connector='OR'), name='jobskill_min_score_range'),
        ),
    ]
