/**
 * Imported first by every part: the same quiet, offline environment the test suite sets up (tests/setup.ts),
 * before any module that reads it is evaluated.
 */
process.env['POWERTOOLS_LOG_LEVEL'] ??= 'SILENT';
process.env['POWERTOOLS_METRICS_DISABLED'] ??= 'true';
process.env['POWERTOOLS_TRACE_ENABLED'] ??= 'false';
process.env['AWS_EC2_METADATA_DISABLED'] = 'true';
process.env['AWS_ACCESS_KEY_ID'] ??= 'bench';
process.env['AWS_SECRET_ACCESS_KEY'] ??= 'bench';
process.env['AWS_REGION'] ??= 'us-east-1';
