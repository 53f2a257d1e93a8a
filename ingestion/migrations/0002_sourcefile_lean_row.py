"""A leaner source file row: no index that another one covers, and the file's bytes always out of line.

Every import updates a source file's row twice (the claim, then the outcome). With the bytes stored in the row
(PostgreSQL keeps values under ~2 kB inline), each of those updates copied them; with ``toast_tuple_target`` at its
minimum the bytes live in the TOAST table and an update copies only a pointer.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ingestion', '0001_initial'),
        ('profiles', '0008_drop_redundant_indexes'),
    ]

    operations = [
        migrations.AlterField(
            model_name='sourcefile',
            name='batch',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='files', to='ingestion.importbatch'),
        ),
        migrations.AlterField(
            model_name='sourcefile',
            name='candidate',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='sources', to='profiles.candidate'),
        ),
        migrations.AlterField(
            model_name='sourcefile',
            name='sha256',
            field=models.CharField(max_length=64),
        ),
        migrations.AddConstraint(
            model_name='sourcefile',
            constraint=models.UniqueConstraint(fields=('sha256',), name='sourcefile_unique_sha256'),
        ),
        migrations.RunSQL(
            "ALTER TABLE ingestion_sourcefile SET (toast_tuple_target = 128)",
            reverse_sql="ALTER TABLE ingestion_sourcefile RESET (toast_tuple_target)",
        ),
    ]
