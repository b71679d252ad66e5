"""Stage 5, the report: exemptions, one diagnostic per pair and `# noqa` (`stage.report`).

Turns what the rules found into what the user is shown, in the order every front end shows it.
Nothing is imported here, so that `selection` and `escape` cost a front end no rule module.
"""
