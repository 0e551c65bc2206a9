module github.com/riskbot/riskbot

go 1.26
